import { eq } from "drizzle-orm";
import { attachmentRequests, auditLog } from "@/db/schema";
import { addAttachmentRequests } from "@/lib/attachments/create-attachment-requests";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { createE2ePackage, withE2eDb } from "./support/signing-data";

// A closing team stops waiting for a document the borrower cannot provide: on the package page it
// withdraws a request nothing was sent for, and makes another one optional.

test.beforeEach(() => {
  test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
});

test("the manager withdraws one request and stops requiring another; the borrower's page follows", async ({ browser, page }) => {
  const pkg = await createE2ePackage("Attachment requests", [{ email: "signer@demo.local" }]);
  await withE2eDb(async (db) => {
    const manager = await resolvePrincipal(db, localSubjectForEmail("manager@demo.local"));
    await addAttachmentRequests(db, {
      principal: manager,
      packageId: pkg.id,
      signerId: pkg.signers[0]!.id,
      requests: [{ name: "Proof of insurance" }, { name: "Pay stub" }],
    });
  });

  await signInAs(page, "manager@demo.local", { landsOn: `/signings/${pkg.id}` });
  const section = page.getByRole("region", { name: "Attachments from signers" });
  const insurance = section.getByTestId("manager-attachment-request").filter({ hasText: "Proof of insurance" });
  await expect(insurance).toContainText("required");
  await section.scrollIntoViewIfNeeded();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath(`requests-${test.info().project.name}.png`), fullPage: true });

  await insurance.getByRole("button", { name: "Don't require Proof of insurance" }).click();
  await expect(section.getByRole("status").filter({ hasText: "no longer waits" })).toBeVisible();
  await expect(insurance).toContainText("optional");
  await expect(insurance.getByRole("button", { name: "Require Proof of insurance", exact: true })).toBeVisible();

  const payStub = section.getByTestId("manager-attachment-request").filter({ hasText: "Pay stub" });
  await payStub.getByRole("button", { name: "Withdraw request Pay stub" }).click();
  await expect(section.getByRole("status").filter({ hasText: "Request withdrawn" })).toBeVisible();
  await expect(payStub).toHaveCount(0);

  const rows = await withE2eDb((db) => db.select().from(attachmentRequests).where(eq(attachmentRequests.packageId, pkg.id)));
  expect(rows.map((r) => [r.name, r.required])).toEqual([["Proof of insurance", false]]);
  const trail = await withE2eDb((db) => db.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.packageId, pkg.id)));
  expect(trail.map((e) => e.action)).toEqual(expect.arrayContaining(["attachment.request_changed", "attachment.request_removed"]));

  // The borrower sees only the insurance request, now optional.
  const borrowerContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const borrower = await borrowerContext.newPage();
  await signInAs(borrower, "signer@demo.local");
  await borrower.goto(`/signings/${pkg.id}`);
  const requested = borrower.getByRole("region", { name: "Attachments requested" });
  await expect(requested).toContainText("Proof of insurance");
  await expect(requested).not.toContainText("Pay stub");
  await borrowerContext.close();
});
