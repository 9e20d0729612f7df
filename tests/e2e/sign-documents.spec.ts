import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { openDb, type DbHandle } from "@/db/client";
import { auditLog, eSignatures, locations, packageDocuments } from "@/db/schema";
import { parsePngDataUrl } from "@/lib/signature-images/parse-png-data-url";
import { createSignerPackage, type FixtureSigner } from "../helpers/signing-fixtures";
import { SignPanel, signatureStrokes } from "./pages/sign-panel";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

// The sign steps of the signer's page: consent, adopting a signature (typed and drawn), signing each
// document once, and the refusals (changed document, out of turn). Every test makes its own package
// in the run's database, so the two projects and the demo package's journeys do not meet.

let handle: DbHandle;

test.beforeEach(async () => {
  test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
  handle = await openDb({ url: e2eDatabaseUrl() }, { max: 1 });
});

test.afterEach(async () => {
  await handle?.close();
});

async function newPackage(signers: FixtureSigner[], documentCount = 1) {
  const [austin] = await handle.db.select().from(locations).where(eq(locations.name, "Austin Branch"));
  return createSignerPackage(handle.db, { location: austin!, signers, documentCount, title: `Sign test ${randomBytes(3).toString("hex")}` });
}

const signaturesOf = (packageId: string) => handle.db.select().from(eSignatures).where(eq(eSignatures.packageId, packageId));

test("consent is recorded once, a typed signature is adopted once and signs each document", async ({ page }) => {
  const pkg = await newPackage([{ email: "signer@demo.local" }], 2);
  await signInAs(page, "signer@demo.local", { landsOn: `/signings/${pkg.id}` });
  const panel = new SignPanel(page);
  await expect(panel.agree).toBeVisible();
  await expect(panel.signButton("Document 1.pdf")).toHaveCount(0);
  await expectNoAxeViolations(page);

  await panel.consent();
  await expect(panel.signatureHeading).toBeFocused();
  await expect(panel.status).toHaveText("Thank you. Next, adopt your signature.");
  const consents = await handle.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signer.consented")));
  expect(consents).toHaveLength(1);
  expect(consents[0]!.ipAddress).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
  expect((consents[0]!.after as { userAgent: string }).userAgent).toBe(await page.evaluate(() => navigator.userAgent));
  await expect(panel.signButton("Document 1.pdf")).toBeDisabled();

  await panel.openDialog();
  await expect(panel.dialog.getByLabel("Your name as you sign it")).toBeFocused();
  await expect(panel.dialog.getByLabel("Your name as you sign it")).toHaveValue("Sam Signer");
  await expectNoAxeViolations(page);
  // From the keyboard: Escape closes it and focus is back on its opener, Enter opens it again.
  await page.keyboard.press("Escape");
  await expect(panel.dialog).toBeHidden();
  await expect(panel.adopt).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(panel.dialog.getByLabel("Your name as you sign it")).toBeFocused();
  await panel.dialog.getByLabel("Your name as you sign it").fill("Samuel Signer");
  // Live preview: every style shows the name as typed, in its own self-hosted font.
  const preview = panel.dialog.getByRole("radio", { name: /Great Vibes/ }).locator("xpath=..").getByText("Samuel Signer");
  await expect(preview).toBeVisible();
  expect(await preview.evaluate((el) => getComputedStyle(el).fontFamily)).toContain("Great Vibes");
  await panel.dialog.getByRole("radio", { name: /Great Vibes/ }).check();
  await panel.dialog.getByRole("button", { name: "Adopt signature" }).click();
  await expect(panel.dialog).toBeHidden();
  await expect(panel.change).toBeFocused();
  await expect(page.getByRole("img", { name: "Your adopted signature: Samuel Signer" })).toBeVisible();
  expect(await page.evaluate(() => document.fonts.check("32px 'Great Vibes'", "Samuel Signer"))).toBe(true);

  await panel.signButton("Document 1.pdf").click();
  await expect(panel.documentRow("Document 1.pdf")).toContainText("Signed");
  await expect(panel.status).toHaveText("Document 1.pdf signed. 1 of 2 left.");
  await panel.signButton("Document 2.pdf").click();
  // The last signature moves the page on by itself: the bank step's lead-in (or the done page).
  await expect(panel.allSigned).toBeVisible();
  await expectNoAxeViolations(page);

  const records = await signaturesOf(pkg.id);
  expect(records).toHaveLength(2);
  for (const [index, doc] of pkg.documents.entries()) {
    const record = records.find((r) => r.documentId === doc.id);
    expect(record, `document ${index + 1}`).toMatchObject({ kind: "typed", typedText: "Samuel Signer", typedFont: "great-vibes", consentGiven: true, documentSha256: doc.sha256 });
    expect(record!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  }
  expect(new Set(records.map((r) => r.idempotencyKey)).size).toBe(2);

  // After a reload the signed state comes from the server: no consent step again, the page has moved on.
  await page.reload();
  await expect(panel.agree).toHaveCount(0);
  await expect(panel.allSigned).toBeVisible();
});

test("a drawn signature: a dot is refused, Undo and Clear work, the drawing signs as a PNG", async ({ page }, testInfo) => {
  const input = testInfo.project.name === "phone" ? "touch" : "mouse";
  const pkg = await newPackage([{ email: "signer@demo.local" }]);
  await signInAs(page, "signer@demo.local", { landsOn: `/signings/${pkg.id}` });
  const panel = new SignPanel(page);
  await panel.consent();
  await panel.openDialog();
  const canvas = await panel.chooseDraw();
  await expect(panel.dialog.getByRole("tab", { name: "Draw" })).toHaveAttribute("aria-selected", "true");
  const box = (await canvas.boundingBox())!;
  // The canvas is backed at the device pixel ratio.
  const ratio = await page.evaluate(() => window.devicePixelRatio);
  expect(await canvas.evaluate((el: HTMLCanvasElement) => el.width)).toBe(Math.round(box.width * ratio));
  await expectNoAxeViolations(page);

  await panel.draw(canvas, [[[40, 40], [41, 41]]], input);
  await panel.dialog.getByRole("button", { name: "Adopt signature" }).click();
  await expect(panel.dialog.getByRole("alert")).toHaveText("That is too small to be a signature. Draw your full signature across the box.");
  await panel.dialog.getByRole("button", { name: "Clear" }).click();
  await expect(canvas).toHaveAccessibleName("Signature drawing area, empty");
  await panel.dialog.getByRole("button", { name: "Adopt signature" }).click();
  await expect(panel.dialog.getByRole("alert")).toHaveText("Draw your signature in the box first.");

  const strokes = signatureStrokes(box.width, box.height);
  await panel.draw(canvas, strokes, input);
  await expect(canvas).toHaveAccessibleName("Signature drawing area, 2 strokes drawn");
  await panel.dialog.getByRole("button", { name: "Undo" }).click();
  await expect(canvas).toHaveAccessibleName("Signature drawing area, 1 stroke drawn");
  await panel.draw(canvas, strokes.slice(1), input);
  await panel.dialog.getByRole("button", { name: "Adopt signature" }).click();
  await expect(panel.dialog).toBeHidden();
  await expect(page.getByRole("img", { name: "Your adopted signature, drawn" })).toBeVisible();

  await panel.signButton("Document 1.pdf").click();
  await expect(panel.allSigned).toBeVisible();
  const [record] = await signaturesOf(pkg.id);
  expect(record).toMatchObject({ kind: "drawn", consentGiven: true, documentSha256: pkg.documents[0]!.sha256 });
  const png = parsePngDataUrl(record!.imageDataUrl!);
  expect(png.ok).toBe(true);
  if (png.ok) {
    // Trimmed to the strokes: narrower than the pad, and well under the API's cap.
    expect(png.bytes.readUInt32BE(16)).toBeLessThan(Math.ceil(box.width * Math.min(ratio, 2)));
    expect(png.bytes.length).toBeLessThan(200 * 1024);
  }
});

test("strokes survive a resize of the pad", { tag: "@desktop" }, async ({ page }) => {
  const pkg = await newPackage([{ email: "signer@demo.local" }]);
  await signInAs(page, "signer@demo.local", { landsOn: `/signings/${pkg.id}` });
  const panel = new SignPanel(page);
  await panel.consent();
  await panel.openDialog();
  const canvas = await panel.chooseDraw();
  const box = (await canvas.boundingBox())!;
  await panel.draw(canvas, signatureStrokes(box.width, box.height), "mouse");
  const inked = () =>
    canvas.evaluate((el: HTMLCanvasElement) => {
      const data = el.getContext("2d")!.getImageData(0, 0, el.width, el.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
      return n;
    });
  expect(await inked()).toBeGreaterThan(100);
  await page.setViewportSize({ width: 420, height: 800 });
  await expect.poll(async () => (await canvas.boundingBox())!.width).toBeLessThan(box.width);
  await expect.poll(inked).toBeGreaterThan(50);
  await expect(canvas).toHaveAccessibleName("Signature drawing area, 2 strokes drawn");
});

test("a double click on Sign records one e-signature", async ({ page }) => {
  const pkg = await newPackage([{ email: "signer@demo.local" }]);
  await signInAs(page, "signer@demo.local", { landsOn: `/signings/${pkg.id}` });
  const panel = new SignPanel(page);
  await panel.consent();
  await panel.adoptTyped("Sam Signer", "Caveat");
  await panel.signButton("Document 1.pdf").dblclick();
  await expect(panel.allSigned).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(await signaturesOf(pkg.id)).toHaveLength(1);
});

test("a document the lender changed after the page opened is refused with a clear sentence", async ({ page }) => {
  const pkg = await newPackage([{ email: "signer@demo.local" }]);
  await signInAs(page, "signer@demo.local", { landsOn: `/signings/${pkg.id}` });
  const panel = new SignPanel(page);
  await panel.consent();
  await panel.adoptTyped("Sam Signer", "Dancing Script");
  await handle.db.update(packageDocuments).set({ sha256: "0".repeat(64) }).where(eq(packageDocuments.id, pkg.documents[0]!.id));

  await panel.signButton("Document 1.pdf").click();
  const alert = panel.documentRow("Document 1.pdf").getByRole("alert");
  await expect(alert).toContainText("The lender changed this document after you opened it. Reload to see the new version.");
  await expect(panel.signButton("Document 1.pdf")).toHaveAccessibleDescription(/The lender changed this document/);
  await expectNoAxeViolations(page);
  expect(await signaturesOf(pkg.id)).toHaveLength(0);

  // Reloading shows the new version; the adopted signature is still there and signing works.
  await alert.getByRole("button", { name: "Reload" }).click();
  await expect(panel.change).toBeVisible();
  await panel.signButton("Document 1.pdf").click();
  await expect(panel.allSigned).toBeVisible();
  const [record] = await signaturesOf(pkg.id);
  expect(record!.documentSha256).toBe("0".repeat(64));
});

test("out of turn, Sign is disabled and says whom the signer waits for", async ({ page }) => {
  const pkg = await newPackage([
    { email: "cosigner@demo.local", routingOrder: 1, role: "co_signer" },
    { email: "signer@demo.local", routingOrder: 2 },
  ]);
  await signInAs(page, "signer@demo.local", { landsOn: `/signings/${pkg.id}` });
  const panel = new SignPanel(page);
  const reason = page.getByRole("heading", { name: "Waiting for Casey Cosigner to sign first" });
  await expect(reason).toBeVisible();
  await panel.consent();
  await panel.adoptTyped("Sam Signer", "Homemade Apple");
  const sign = panel.signButton("Document 1.pdf");
  await expect(sign).toBeDisabled();
  await expect(sign).toHaveAccessibleDescription("Casey Cosigner must sign before you can.");
  await expectNoAxeViolations(page);
  expect(await signaturesOf(pkg.id)).toHaveLength(0);
});
