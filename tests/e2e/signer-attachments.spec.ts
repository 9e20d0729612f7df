import { randomBytes } from "node:crypto";
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
  // Two labelled choices under the request's name: the camera, and a file (a saved photo or a PDF, no capture).
  const choice = section.getByRole("group", { name: "Photo or file for Driver's license, front and back" });
  const camera = choice.getByLabel("Take a photo");
  await expect(camera).toHaveAttribute("accept", "image/*");
  await expect(camera).toHaveAttribute("capture", "environment");
  const input = choice.getByLabel("Choose a file (photo or PDF)");
  await expect(input).toHaveAttribute("accept", "image/*,application/pdf");
  await expect(input).not.toHaveAttribute("capture");
  await section.scrollIntoViewIfNeeded();
  await expectNoAxeViolations(page);
  await shot(page, "signer-requested");

  // Not a photo: refused in place when it is checked after the upload (with a Retry); sent anyway, the form's answer says why; nothing kept.
  await input.setInputFiles({ name: "license.jpg", mimeType: "image/jpeg", buffer: Buffer.from("this is not an image at all") });
  await expect(section.getByRole("alert")).toContainText("Not uploaded:");
  await expect(section.getByRole("button", { name: "Retry license.jpg" })).toBeVisible();
  await section.getByRole("button", { name: "Send", exact: true }).click();
  await expect(section.getByRole("status")).toContainText("not a photo");
  expect(await withE2eDb((db) => db.select().from(signerAttachments).where(eq(signerAttachments.packageId, pkg.id)))).toEqual([]);

  await input.setInputFiles({ name: "license.jpg", mimeType: "image/jpeg", buffer: await photo() });
  await expect(section.getByText("Ready", { exact: true })).toBeVisible();
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
  await section.getByRole("group", { name: /Send another file/ }).getByLabel("Choose a file (photo or PDF)").setInputFiles({ name: "both-sides.jpg", mimeType: "image/jpeg", buffer: await photo() });
  await expect(section.getByText("Ready", { exact: true })).toBeVisible();
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

/** A photo of about 4 MB (noise does not compress): under the 20 MiB limit, near a serverless host's 4.5 MB body limit. */
const bigPhoto = async () => {
  const width = 2200;
  const height = 1650;
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).jpeg({ quality: 97 }).toBuffer();
};

test("a borrower's 4 MB photo goes straight to storage with its progress, only its id is posted, and the manager sees it", async ({ browser, page }) => {
  const pkg = await createE2ePackage("Attachments direct", [{ email: SAM }]);
  await withE2eDb(async (db) => {
    const manager = await resolvePrincipal(db, localSubjectForEmail("manager@demo.local"));
    await addAttachmentRequests(db, { principal: manager, packageId: pkg.id, signerId: pkg.signers[0]!.id, requests: [{ name: "Proof of income" }] });
  });
  await signInAs(page, SAM);
  await page.goto(`/signings/${pkg.id}`);
  const section = page.getByRole("region", { name: "Attachments requested" });
  const input = section.getByRole("group", { name: "Photo or file for Proof of income" }).getByLabel("Choose a file (photo or PDF)");

  // Over 20 MiB: refused in the browser before anything is sent, and taken out of the input (tried
  // again until the page has hydrated: before, the input is a plain one).
  await expect(async () => {
    await input.setInputFiles({ name: "huge.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(20 * 1024 * 1024 + 1) });
    await expect(section.getByRole("alert")).toContainText("huge.jpg is larger than 20 MB", { timeout: 1000 });
  }).toPass();
  await expect(section.getByRole("button", { name: /^Retry/ })).toHaveCount(0);
  expect(await input.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);

  // A slow uplink (about 1.5 MB/s) so the progress is seen on the way.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 1_500_000 });
  const buffer = await bigPhoto();
  expect(buffer.byteLength).toBeGreaterThan(3_500_000);
  const put = page.waitForRequest((request) => request.method() === "PUT" && /\/v1\/uploads\/[^/]+\/content$/.test(request.url()));
  await input.setInputFiles({ name: "pay-stub.jpg", mimeType: "image/jpeg", buffer });
  await put;
  const progress = section.getByRole("progressbar", { name: "Uploading pay-stub.jpg" });
  await expect(progress).toBeVisible();
  await expect(section.getByRole("status").filter({ hasText: /Uploading… \d+%/ })).toBeVisible();
  await section.screenshot({ path: test.info().outputPath(`signer-attachment-uploading-${test.info().project.name}.png`) });
  await expect(section.getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await section.scrollIntoViewIfNeeded();
  await expectNoAxeViolations(page);
  await section.screenshot({ path: test.info().outputPath(`signer-attachment-section-${test.info().project.name}.png`) });

  // Send posts the upload's id, not the photo.
  const send = page.waitForRequest((request) => request.method() === "POST" && new URL(request.url()).pathname === `/signings/${pkg.id}`);
  await section.getByRole("button", { name: "Send", exact: true }).click();
  expect((await send).postDataBuffer()?.byteLength ?? 0).toBeLessThan(64 * 1024);
  await expect(section.getByTestId("attachment-status")).toHaveText("Sent, waiting for review");

  const managerContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const manager = await managerContext.newPage();
  await signInAs(manager, "manager@demo.local", { landsOn: `/signings/${pkg.id}` });
  const review = manager.getByRole("region", { name: "Attachments from signers" });
  await expect(review).toContainText("pay-stub.pdf");
  await expect(review).toContainText("Waiting for your review");
  await managerContext.close();
  const rows = await withE2eDb((db) => db.select().from(signerAttachments).where(eq(signerAttachments.packageId, pkg.id)));
  expect(rows).toMatchObject([{ status: "pending", sourceType: "image/jpeg", fileName: "pay-stub.pdf" }]);
});
