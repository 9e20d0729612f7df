import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { openDb, type DbHandle } from "@/db/client";
import { documentFields, eSignatures, locations } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { addTemplateDocument } from "@/lib/templates/add-template-document";
import { createTemplate } from "@/lib/templates/create-template";
import { sendSigning } from "@/lib/signings/send-signing";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { FieldEditorPage } from "./pages/field-editor-page";
import { SignPanel } from "./pages/sign-panel";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

// Fields end to end: a manager drags a signature and a text field onto a draft's page, the package
// is sent, and the signer is guided to the fields, cannot sign before filling the required text,
// then fills it and signs. The package is this test's own (PostgreSQL only).

let handle: DbHandle;

test.beforeEach(async () => {
  test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages (PGlite is held by the server)");
  handle = await openDb({ url: e2eDatabaseUrl() }, { max: 1 });
});

test.afterEach(async () => {
  await handle?.close();
});

test("a manager places fields by dragging; the signer is guided to them and signs once the required text is filled", { tag: "@desktop" }, async ({ browser }, testInfo) => {
  // Three browser contexts (manager, desktop signer, phone signer) and a signature: about 60 s when
  // the two CI shards run side by side on two cores.
  test.setTimeout(180_000);
  const [austin] = await handle.db.select().from(locations).where(eq(locations.name, "Austin Branch"));
  const pkg = await createSignerPackage(handle.db, {
    location: austin!,
    signers: [{ email: "signer@demo.local" }],
    status: "draft",
    title: `Fields test ${randomBytes(3).toString("hex")}`,
  });
  const documentId = pkg.documents[0]!.id;

  // The manager places the fields.
  // Tall enough that the palette and the drop points are on screen together.
  const managerContext = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const managerPage = await managerContext.newPage();
  await signInAs(managerPage, "manager@demo.local", { landsOn: `/signings/${pkg.id}/fields` });
  const editor = new FieldEditorPage(managerPage);
  await editor.heading.waitFor();
  const surface = editor.pageSurface(1);
  await surface.waitFor();
  await expectNoAxeViolations(managerPage);

  await editor.dragOnto("Signature", 1, { x: 60, y: 300 });
  await expect(editor.field(/^Signature for Sam Signer, page 1$/)).toBeVisible();
  await editor.dragOnto("Text", 1, { x: 60, y: 220 });
  const text = editor.field(/^Text for Sam Signer, page 1$/);
  await expect(text).toBeVisible();
  await expect(text).toHaveAttribute("aria-pressed", "true");
  await editor.label.fill("Vehicle VIN");
  // Keyboard alternative: Shift+ArrowUp moves the selected field 10 points up.
  const yBefore = Number(await editor.y.inputValue());
  await editor.field(/^Text “Vehicle VIN” for Sam Signer, page 1$/).press("Shift+ArrowUp");
  await expect(editor.y).toHaveValue(String(Math.round((yBefore + 10) * 100) / 100));
  await expectNoAxeViolations(managerPage);

  await editor.save("Document 1.pdf").click();
  await expect(managerPage.getByText("Saved 2 fields.")).toBeVisible();
  await managerPage.screenshot({ path: testInfo.outputPath("editor-1280.png"), fullPage: true });

  // Stored in PDF points: the drop point (CSS px on the rendered page) is the field's top-left corner.
  const box = (await surface.boundingBox())!;
  const scale = box.width / 612;
  const stored = await handle.db.select().from(documentFields).where(eq(documentFields.documentId, documentId));
  expect(stored.map((f) => f.type).sort()).toEqual(["signature", "text"]);
  const signature = stored.find((f) => f.type === "signature")!;
  // Within 2 points: the drop lands on whole CSS pixels.
  expect(Math.abs(signature.x - 60 / scale)).toBeLessThan(2);
  expect(Math.abs(signature.y + signature.height - (792 - 300 / scale))).toBeLessThan(2);
  const textField = stored.find((f) => f.type === "text")!;
  expect(textField).toMatchObject({ label: "Vehicle VIN", required: true, signerId: pkg.signers[0]!.id });
  expect(Math.abs(textField.y + textField.height - (792 - 220 / scale + 10))).toBeLessThan(2);
  await managerContext.close();

  const manager = await resolvePrincipal(handle.db, localSubjectForEmail("manager@demo.local"));
  await sendSigning(handle.db, { principal: manager, packageId: pkg.id });

  // The signer is guided to the fields.
  const signerContext = await browser.newContext();
  const page = await signerContext.newPage();
  await signInAs(page, "signer@demo.local", { landsOn: `/signings/${pkg.id}` });
  const panel = new SignPanel(page);
  await panel.consent();
  await panel.adoptTyped("Sam Signer", "Caveat");
  const signButton = panel.signButton("Document 1.pdf");
  await expect(signButton).toBeDisabled();
  await expect(panel.documentRow("Document 1.pdf")).toContainText("Fill 1 required field on this document before you sign: Vehicle VIN.");
  await expect(page.getByText("1 required field to fill")).toBeVisible();
  // The signature field shows the adopted signature, exactly as it will be drawn.
  await expect(page.getByRole("img", { name: "Your signature goes here" })).toContainText("Sam Signer");

  await page.getByRole("button", { name: "Next field" }).click();
  const vin = page.getByRole("textbox", { name: "Vehicle VIN (required)" });
  await expect(vin).toBeFocused();
  await expect(vin).toBeInViewport();
  await expectNoAxeViolations(page);

  await page.screenshot({ path: testInfo.outputPath("signer-1280.png") });
  // The same page on a phone (looked at, not driven).
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const phonePage = await phone.newPage();
  await signInAs(phonePage, "signer@demo.local", { landsOn: `/signings/${pkg.id}` });
  await phonePage.getByRole("button", { name: "Next field" }).click();
  await expect(phonePage.getByRole("textbox", { name: "Vehicle VIN (required)" })).toBeFocused();
  await phonePage.screenshot({ path: testInfo.outputPath("signer-390.png") });
  await phone.close();

  await vin.fill("1HGCM82633A004352");
  await expect(page.getByText("All required fields are filled.")).toBeVisible();
  await expect(signButton).toBeEnabled();
  await signButton.click();
  await expect(panel.allSigned).toBeVisible();

  const [record] = await handle.db.select().from(eSignatures).where(eq(eSignatures.packageId, pkg.id));
  expect(record).toMatchObject({ documentId, typedText: "Sam Signer" });
  const [filled] = await handle.db.select().from(documentFields).where(and(eq(documentFields.documentId, documentId), eq(documentFields.type, "text")));
  expect(filled).toMatchObject({ value: "1HGCM82633A004352" });
  expect(filled!.filledAt).not.toBeNull();
  await signerContext.close();
});

test("a template's fields are placed per role in /templates/<id>/fields", { tag: "@desktop" }, async ({ browser }) => {
  const [austin] = await handle.db.select().from(locations).where(eq(locations.name, "Austin Branch"));
  const manager = await resolvePrincipal(handle.db, localSubjectForEmail("manager@demo.local"));
  const template = await createTemplate(handle.db, {
    principal: manager,
    organizationId: austin!.organizationId,
    name: `Fields template ${randomBytes(3).toString("hex")}`,
    roles: [
      { key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 },
      { key: "cobuyer", label: "Co-buyer", role: "co_signer", routingOrder: 1 },
    ],
  });
  const document = await addTemplateDocument(handle.db, {
    principal: manager,
    templateId: template.id,
    name: "RIC.pdf",
    bytes: await renderAgreementPdf({ title: "Retail installment contract", parties: ["Buyer", "Co-buyer"], pages: 2 }),
  });

  const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
  const page = await context.newPage();
  await signInAs(page, "manager@demo.local", { landsOn: `/templates/${template.id}/fields` });
  const editor = new FieldEditorPage(page);
  await editor.pageSurface(1).waitFor();
  await editor.party.selectOption({ label: "Co-buyer" });
  await editor.dragOnto("Initials", 1, { x: 80, y: 200 });
  await expect(editor.field(/^Initials for Co-buyer, page 1$/)).toBeVisible();
  await expectNoAxeViolations(page);
  await editor.save("RIC.pdf").click();
  await expect(page.getByText("Saved 1 field.")).toBeVisible();
  const stored = await handle.db.select().from(documentFields).where(eq(documentFields.templateDocumentId, document.id));
  expect(stored).toMatchObject([{ type: "initials", templateRoleKey: "cobuyer", page: 1, required: true }]);
  await context.close();
});
