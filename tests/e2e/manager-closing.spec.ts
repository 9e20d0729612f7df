import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { locations } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { createSigning } from "@/lib/signings/create-signing";
import { sendSigning } from "@/lib/signings/send-signing";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { SigningFormPage } from "./pages/signing-form-page";
import { withE2eDb } from "./support/signing-data";

// The manager's closing page (`/signings/<id>/closing`) for a hybrid package: the summary line on the
// package page, the table packet downloaded and printed to images (pdftoppm), a scanback upload with
// one page turned and the cover sheet in it, the page-by-page report, a hand assignment, attaching,
// and rejecting the scan with a reason. The packet comes from the server (its codes use the run's
// AUTH_SECRET), so the scans are made from what a manager downloads.

const MANAGER = "manager@demo.local";
const run = promisify(execFile);

async function createHybridPackage(): Promise<{ id: string; title: string }> {
  const title = `Hybrid closing ${Date.now().toString(36)}`;
  return withE2eDb(async (db) => {
    const [austin] = await db.select().from(locations).where(eq(locations.name, "Austin Branch"));
    const manager = await resolvePrincipal(db, localSubjectForEmail(MANAGER));
    const pdf = (name: string, pages = 1) => renderAgreementPdf({ title: name, parties: ["Borrower"], pages });
    const created = await createSigning(db, {
      principal: manager,
      locationId: austin!.id,
      title,
      signers: [{ name: "Sam Signer", email: "signer@demo.local" }],
      documents: [
        { name: "Disclosure.pdf", bytes: await pdf("Disclosure") },
        { name: "Note.pdf", bytes: await pdf("Note", 2), executionMode: "wet_sign" },
        { name: "Booklet.pdf", bytes: await pdf("Booklet"), executionMode: "review_only" },
      ],
      appointment: { closingAt: "2026-12-01T15:00:00Z", closingPlace: "Title office, 1 Main St", settlementAgent: "Sam Agent" },
    });
    await sendSigning(db, { principal: manager, packageId: created.id });
    return { id: created.id, title };
  });
}

test.describe("the manager's closing page", () => {
  test.beforeEach(() => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
  });

  test("downloads the packet, uploads scans, reads the report, assigns a page, attaches and rejects with a reason", { tag: "@desktop" }, async ({ page }, testInfo) => {
    const pkg = await createHybridPackage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(page, MANAGER, { landsOn: `/signings/${pkg.id}` });
    await expect(page.getByTestId("closing-summary-line")).toHaveText("Hybrid closing: 1 to e-sign · 1 at the table · 1 to read · Table packet and scans");
    await page.getByRole("link", { name: "Table packet and scans" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Closing" })).toBeVisible();
    await expect(page.getByTestId("closing-summary")).toHaveText("1 to e-sign · 1 at the table · 1 to read");
    await expectNoAxeViolations(page);

    // The packet as a manager downloads it, printed to PNGs: cover, note page 1, note page 2.
    const packet = await page.request.get(`/signings/${pkg.id}/closing/table-packet`);
    expect(packet.status()).toBe(200);
    expect(packet.headers()["content-type"]).toBe("application/pdf");
    const dir = mkdtempSync(join(tmpdir(), "e2e-closing-"));
    writeFileSync(join(dir, "packet.pdf"), await packet.body());
    await run("pdftoppm", ["-r", "150", "-gray", "-png", join(dir, "packet.pdf"), join(dir, "pk")]);
    const [cover, , note2] = readdirSync(dir).filter((f) => f.startsWith("pk-")).sort().map((f) => join(dir, f));
    const turned = join(dir, "note-2-turned.png");
    writeFileSync(turned, await sharp(readFileSync(note2!)).rotate(90).png().toBuffer());

    // Upload note page 2 (turned) and the cover sheet; page 1 is missing. The first file's PUT to storage
    // fails (the connection drops): it alone offers Retry, the other stays stored, and Retry sends it again.
    let failures = 1;
    await page.route("**/v1/uploads/*/content", (route) => (failures-- > 0 ? route.abort("connectionreset") : route.continue()));
    await page.getByLabel("Scanned files").setInputFiles([turned, cover!]);
    const files = page.getByRole("list", { name: "Files" });
    await expect(files.getByRole("listitem")).toHaveCount(2);
    await expect(files.getByRole("alert")).toHaveText(["Not uploaded: The upload did not reach storage. Check your connection and try again."]);
    await expect(files.getByRole("status")).toHaveText(["Ready"]);
    await files.getByRole("button", { name: /^Retry / }).click();
    await expect(files.getByRole("status")).toHaveText(["Ready", "Ready"]);
    await expect(files.getByRole("alert")).toHaveCount(0);
    await page.unroute("**/v1/uploads/*/content");
    await page.getByRole("button", { name: "Upload and check" }).click();
    await expect(page.getByText("Read 2 pages: 1 matched, 1 need a look.")).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId("scanback-documents")).toHaveText("Note.pdf: 1 of 2 pages · missing page 1");
    const rows = page.getByTestId("scanback-page");
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: "note-2-turned.png" })).toContainText("MatchedNote.pdf, page 2");
    await expect(rows.filter({ hasText: "pk-1.png" })).toContainText("Unreadable: assign or discard");
    await page.screenshot({ path: testInfo.outputPath("closing-report-1280.png"), fullPage: true });
    await expectNoAxeViolations(page);

    // The cover sheet assigned by hand as page 1 (a wrong page, so the review rejects it).
    const coverRow = rows.filter({ hasText: "pk-1.png" });
    await coverRow.getByLabel("Page").fill("1");
    await coverRow.getByRole("button", { name: "Assign page" }).click();
    await expect(page.getByTestId("scanback-documents")).toHaveText("Note.pdf: 2 of 2 pages · ready to attach");
    await page.getByRole("button", { name: "Attach complete documents" }).click();
    await expect(page.getByTestId("scanback-documents")).toHaveText("Note.pdf: scan attached");
    await expect(page.getByTestId("closing-summary")).toHaveText("1 to e-sign · 1 scan to review · 1 to read");

    const scanHref = await page.getByRole("link", { name: /Open the scan of Note\.pdf/ }).getAttribute("href");
    const scan = await page.request.get(scanHref!);
    expect(scan.status()).toBe(200);
    expect(scan.headers()["content-type"]).toBe("application/pdf");
    await page.getByLabel("Reason for rejecting").fill("Page 1 is the cover sheet");
    await page.getByRole("button", { name: "Reject scan of Note.pdf" }).click();
    await expect(page.getByTestId("closing-summary")).toHaveText("1 to e-sign · 1 scan rejected · 1 to read");
    await expect(page.getByTestId("closing-document").filter({ hasText: "Note.pdf" })).toContainText("Scan rejected: Page 1 is the cover sheet. Waiting for a new scan.");
    await page.screenshot({ path: testInfo.outputPath("closing-rejected-1280.png"), fullPage: true });
    await expectNoAxeViolations(page);

    await page.setViewportSize({ width: 768, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath("closing-768.png"), fullPage: true });
  });

  test("creates a hybrid package in the package form: a mode per document and the closing appointment", { tag: "@desktop" }, async ({ page }, testInfo) => {
    const title = `Form hybrid ${Date.now().toString(36)}`;
    const pdf = async (name: string, pages = 1) => ({ name, mimeType: "application/pdf", buffer: Buffer.from(await renderAgreementPdf({ title: name, parties: ["Borrower"], pages })) });
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(page, MANAGER);
    const form = await new SigningFormPage(page).gotoNew();
    await form.chooseLocation("Austin Branch");
    await form.title().fill(title);
    await form.fillSigner(1, { name: "Sam Signer", email: "signer@demo.local" });
    await form.pick(await pdf("Disclosure.pdf"));
    await form.pick(await pdf("Note.pdf", 2));
    await form.pick(await pdf("Booklet.pdf"));
    for (const name of ["Disclosure.pdf", "Note.pdf", "Booklet.pdf"]) await expect(form.pickedFile(name)).toContainText("Ready");
    await expect(page.getByLabel("How Disclosure.pdf is signed")).toHaveValue("esign");
    await page.getByLabel("How Note.pdf is signed").selectOption({ label: "Sign in ink at the table" });
    await page.getByLabel("How Booklet.pdf is signed").selectOption({ label: "Read only" });
    await page.getByLabel("Closing date and time (UTC)").fill("2026-12-03T16:30");
    await page.getByLabel("Place").fill("Title office, 1 Main St");
    await page.getByLabel("Settlement agent").fill("Ana Ruiz, ana@title.example");
    await page.getByRole("heading", { name: "Documents" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath("form-modes-1280.png"), fullPage: true });
    await expectNoAxeViolations(page);
    await page.setViewportSize({ width: 768, height: 900 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: testInfo.outputPath("form-modes-768.png"), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });

    await form.saveDraft();
    await expect(page).toHaveURL(/\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
    await expect(form.attachedDocuments()).toHaveText([/Disclosure\.pdf/, /Note\.pdf/, /Booklet\.pdf/]);
    await expect(page.getByLabel("How Note.pdf is signed")).toHaveValue("wet_sign");
    await expect(page.getByLabel("How Booklet.pdf is signed")).toHaveValue("review_only");
    await expect(page.getByLabel("Closing date and time (UTC)")).toHaveValue("2026-12-03T16:30");
    // The draft's own choice, changed again in the form, reaches the Closing page.
    await page.getByLabel("How Disclosure.pdf is signed").selectOption({ label: "Notarize at the table" });
    await form.saveDraft();
    await expect(page.getByLabel("How Disclosure.pdf is signed")).toHaveValue("notarize");
    await page.goto(page.url().replace(/\/edit\?saved=1$/, "/closing"));
    await expect(page.getByTestId("closing-summary")).toHaveText("2 at the table · 1 to read");
    await expectNoAxeViolations(page);
  });

  test("tells the signer on a phone what is e-signed now, what is signed at the table and what is only to read", { tag: "@desktop" }, async ({ page }, testInfo) => {
    const pkg = await createHybridPackage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAs(page, "signer@demo.local", { landsOn: `/signings/${pkg.id}` });
    const plan = page.getByTestId("closing-plan");
    await expect(plan).toContainText("E-sign now");
    await expect(plan).toContainText("Disclosure.pdf");
    await expect(plan).toContainText("Signed in ink at the closing table");
    await expect(plan).toContainText("December 1, 2026 at 3:00 PM UTC, Title office, 1 Main St, with Sam Agent");
    await expect(plan).toContainText("Note.pdf");
    await expect(plan).toContainText("Only to read");
    // The document tabs say how each document not e-signed here is executed.
    await expect(page.getByRole("tab", { name: /Disclosure\.pdf/ })).toContainText("To sign");
    await expect(page.getByRole("tab", { name: /Note\.pdf/ })).toContainText("Sign in ink at the table");
    await expect(page.getByRole("tab", { name: /Booklet\.pdf/ })).toContainText("Read only — confirm receipt");
    await page.screenshot({ path: testInfo.outputPath("signer-tabs-390.png") });
    await plan.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath("signer-plan-390.png"), fullPage: true });
    await expectNoAxeViolations(page);
    await plan.getByRole("button", { name: /I received it\s*:\s*Booklet\.pdf/ }).click();
    await expect(plan).toContainText("Booklet.pdf — you confirmed you received it");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
