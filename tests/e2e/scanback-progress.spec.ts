import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { locations, scanbackScans } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { createSigning } from "@/lib/signings/create-signing";
import { sendSigning } from "@/lib/signings/send-signing";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { withE2eDb } from "./support/signing-data";

// The closing page while a large scan is read in the background: "Scans being read" with the pages
// read of all and a progress bar, moving on its own as the scan's row moves (the page refreshes itself
// every two seconds), gone once the scan is done; a failed scan shows its reason. The scan's row is
// written here, as the job would write it, so the page is checked without waiting for a real reading.

const MANAGER = "manager@demo.local";

async function hybridWithScan(): Promise<{ id: string; scanId: string }> {
  return withE2eDb(async (db) => {
    const [austin] = await db.select().from(locations).where(eq(locations.name, "Austin Branch"));
    const manager = await resolvePrincipal(db, localSubjectForEmail(MANAGER));
    const created = await createSigning(db, {
      principal: manager,
      locationId: austin!.id,
      title: `Large scan ${Date.now().toString(36)}`,
      signers: [{ name: "Sam Signer", email: "signer@demo.local" }],
      documents: [{ name: "Note.pdf", bytes: await renderAgreementPdf({ title: "Note", parties: ["Borrower"], pages: 25 }), executionMode: "wet_sign" }],
    });
    await sendSigning(db, { principal: manager, packageId: created.id });
    const [scan] = await db
      .insert(scanbackScans)
      .values({ packageId: created.id, organizationId: austin!.organizationId, uploadId: randomUUID(), status: "processing", totalPages: 26, processedPages: 4, chunkSize: 10 })
      .returning();
    return { id: created.id, scanId: scan!.id };
  });
}

const setScan = (scanId: string, values: Partial<typeof scanbackScans.$inferInsert>) =>
  withE2eDb((db) => db.update(scanbackScans).set(values).where(eq(scanbackScans.id, scanId)));

test.describe("a scan read in the background", () => {
  test.beforeEach(() => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
  });

  test("shows its progress on the closing page, moving on its own, then its failure reason", async ({ page }, testInfo) => {
    const pkg = await hybridWithScan();
    await signInAs(page, MANAGER, { landsOn: `/signings/${pkg.id}` });
    await page.goto(`/signings/${pkg.id}/closing`);
    const scans = page.getByTestId("scanback-scans");
    await expect(scans.getByRole("heading", { name: "Scans being read" })).toBeVisible();
    await expect(scans.getByTestId("scanback-scan")).toContainText("4 of 26 pages read");
    await expect(scans.getByRole("progressbar", { name: "Pages read" })).toHaveAttribute("value", "4");
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath("scan-progress.png"), fullPage: true });

    // The job reads on: the page follows without a reload.
    await setScan(pkg.scanId, { processedPages: 20 });
    await expect(scans.getByTestId("scanback-scan")).toContainText("20 of 26 pages read", { timeout: 10_000 });

    // It fails: the reason shows and the refreshing stops.
    await setScan(pkg.scanId, { status: "failed", processedPages: 0, error: 'Page 21 of "scan.pdf" took longer than 20 s to render; scan it again or upload it as an image.', finishedAt: new Date() });
    await expect(scans.getByTestId("scanback-scan")).toHaveAttribute("data-status", "failed", { timeout: 10_000 });
    await expect(scans).toContainText("Page 21 of \"scan.pdf\" took longer than 20 s");
    await expect(scans.getByRole("link", { name: "Refresh to see the progress" })).toHaveCount(0);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath("scan-failed.png"), fullPage: true });

    // Done: nothing left to show.
    await setScan(pkg.scanId, { status: "done", error: null });
    await page.reload();
    await expect(page.getByTestId("scanback-scans")).toHaveCount(0);
  });
});
