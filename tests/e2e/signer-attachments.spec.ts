import { eq } from "drizzle-orm";
import sharp from "sharp";
import { signerAttachments } from "@/db/schema";
import { addAttachmentRequests } from "@/lib/attachments/create-attachment-requests";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { createE2ePackage, withE2eDb } from "./support/signing-data";

// Attachments asked of a borrower: they send a photo from the package page (camera or file), the
// manager rejects it with a reason, the borrower sees why and sends another, the manager accepts it.

const SAM = "signer@demo.local";

test.beforeEach(() => {
  test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
});

/** A full-page screenshot in the test's output folder, per project (desktop 1280 px, phone 390 px). */
const shot = (page: import("@playwright/test").Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}-${test.info().project.name}.png`), fullPage: true });

const photo = () => sharp({ create: { width: 60, height: 40, channels: 3, background: { r: 20, g: 90, b: 160 } } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();

test("a borrower sends a photo, it is rejected with a reason, they send another and it is accepted", async ({ browser, page }) => {
  const pkg = await createE2ePackage("Attachments", [{ email: SAM }]);
  await withE2eDb(async (db) => {
    const manager = await resolvePrincipal(db, localSubjectForEmail("manager@demo.local"));
    await addAttachmentRequests(db, { principal: manager, packageId: pkg.id, signerId: pkg.signers[0]!.id, requests: [{ name: "Driver's license, front and back", description: "Both sides, readable" }] });
  });

  await signInAs(page, SAM);
  await page.goto(`/signings/${pkg.id}`);
  const section = page.getByRole("region", { name: "Attachments requested" });
  await expect(section).toContainText("Driver's license, front and back");
  await expect(section).toContainText("Required");
  const input = section.getByLabel("Photo or file for Driver's license, front and back");
  await expect(input).toHaveAttribute("accept", "image/*,application/pdf");
  await expect(input).toHaveAttribute("capture", "environment");
  await section.scrollIntoViewIfNeeded();
  await expectNoAxeViolations(page);
  await shot(page, "signer-requested");

  // Not a photo: refused in place, nothing kept.
  await input.setInputFiles({ name: "license.jpg", mimeType: "image/jpeg", buffer: Buffer.from("this is not an image at all") });
  await section.getByRole("button", { name: "Send", exact: true }).click();
  await expect(section.getByRole("status")).toContainText("not a photo");
  expect(await withE2eDb((db) => db.select().from(signerAttachments).where(eq(signerAttachments.packageId, pkg.id)))).toEqual([]);

  await input.setInputFiles({ name: "license.jpg", mimeType: "image/jpeg", buffer: await photo() });
  await section.getByRole("button", { name: "Send", exact: true }).click();
  await expect(section.getByTestId("attachment-status")).toHaveText("Sent, waiting for review");

  // The manager rejects it with a reason, in a dialog.
  const managerContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const manager = await managerContext.newPage();
  await signInAs(manager, "manager@demo.local", { landsOn: `/signings/${pkg.id}` });
  const review = manager.getByRole("region", { name: "Attachments from signers" });
  await expect(review).toContainText("Waiting for your review");
  await expect(review.getByRole("link", { name: /^Download/ })).toHaveAttribute("href", /\/attachments\/.+\/file\?download=1$/);
  await review.getByRole("button", { name: /^Reject/ }).click();
  const dialog = manager.getByRole("dialog", { name: /^Reject/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Reason (the signer reads it)")).toBeFocused();
  await expectNoAxeViolations(manager);
  await shot(manager, "manager-reject-dialog");
  // From the keyboard: Escape closes it and focus is back on Reject, Enter opens it again.
  await manager.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(review.getByRole("button", { name: /^Reject/ })).toBeFocused();
  await manager.keyboard.press("Enter");
  await expect(dialog.getByLabel("Reason (the signer reads it)")).toBeFocused();
  await dialog.getByLabel("Reason (the signer reads it)").fill("The back of the license is missing.");
  await dialog.getByRole("button", { name: "Reject and tell the signer" }).click();
  await expect(review).toContainText("Rejected (The back of the license is missing.)");
  await expect(review).toContainText("Missing");
  await expect(dialog).toBeHidden();

  // The borrower sees why and sends another.
  await page.reload();
  await expect(section.getByTestId("attachment-status")).toHaveText("Not accepted: The back of the license is missing.");
  await shot(page, "signer-rejected");
  await section.getByLabel(/Send another file/).setInputFiles({ name: "both-sides.jpg", mimeType: "image/jpeg", buffer: await photo() });
  await section.getByRole("button", { name: "Send", exact: true }).click();
  await expect(section.getByTestId("attachment-status").last()).toHaveText("Sent, waiting for review");

  await manager.reload();
  await review.getByRole("button", { name: /^Accept/ }).click();
  await expect(review).toContainText("Accepted");
  await expectNoAxeViolations(manager);
  await shot(manager, "manager-accepted");
  await managerContext.close();

  const rows = await withE2eDb((db) => db.select().from(signerAttachments).where(eq(signerAttachments.packageId, pkg.id)));
  expect(rows.map((r) => r.status).sort()).toEqual(["accepted", "rejected"]);
});
