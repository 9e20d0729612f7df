import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { attachmentRequests, organizations, packageSigners, users } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { addTemplateDocument } from "@/lib/templates/add-template-document";
import { createTemplate } from "@/lib/templates/create-template";
import { BulkSendPage, SigningFormPage } from "./pages/signing-form-page";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { withE2eDb } from "./support/signing-data";

// The manager's package form (/signings/new, /signings/<id>/edit) and bulk send (/signings/bulk).
// The console is desktop-first: the journeys run on the desktop project, with a 768 px check.

const unique = () => randomUUID().slice(0, 8);

async function pdfFile(name: string, title: string) {
  return { name, mimeType: "application/pdf", buffer: Buffer.from(await renderAgreementPdf({ title, parties: ["Buyer"], pages: 2 })) };
}

async function expectNoHorizontalScroll(page: import("@playwright/test").Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

test.describe("creating packages", { tag: "@desktop" }, () => {
  test("creates a draft with two signers and PDFs (picker and drop), refuses a non-PDF inline, edits the draft and sends it", async ({ page }) => {
    const id = unique();
    const title = `E2E create ${id}`;
    await signInAs(page, "manager@demo.local");
    const form = await new SigningFormPage(page).gotoNew();
    await expectNoAxeViolations(page);

    await page.setViewportSize({ width: 768, height: 900 });
    await expectNoHorizontalScroll(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Where, what, who: sections in that order.
    const headings = await page.getByRole("heading", { level: 2 }).allTextContents();
    expect(headings.map((h) => h.replace(/^\d/, ""))).toEqual(["Where", "What", "Who signs", "Documents", "Closing appointment (optional)"]);
    await form.chooseLocation("Austin Branch");
    await form.title().fill(title);
    await form.fillSigner(1, { name: "Avery Create", email: `avery.${id}@example.com` });
    // What the signer is asked to send: one per line, a description after "|", "(optional)" for one they may skip.
    const asked = "Driver's license, front and back | Both sides, readable\nPay stub (optional)";
    await form.signerField(1, "Attachments to ask for (optional)").fill(asked);
    await form.addSigner();
    await form.fillSigner(2, { name: "Blake Create", email: `blake.${id}@example.com`, role: "Co-signer", order: 2 });
    // Reorder: moving signer 2 up swaps the rows and their routing order.
    await page.getByRole("button", { name: "Move up signer 2" }).click();
    await expect(form.signerField(1, "Name")).toHaveValue("Blake Create");
    await expect(form.signerField(1, "Order")).toHaveValue("1");
    await expect(form.signerField(2, "Order")).toHaveValue("2");
    await page.getByRole("button", { name: "Move down signer 1" }).click();
    await expect(form.signerField(1, "Name")).toHaveValue("Avery Create");

    // A text file is refused inline with the API's words; PDFs from the picker and a drop are checked.
    await form.pick({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a pdf at all") });
    await expect(form.pickedFile("notes.txt")).toContainText("Not attached: The uploaded file is not a readable PDF.");
    await expectNoAxeViolations(page);
    await form.pick(await pdfFile("Contract.pdf", `Contract ${id}`));
    await expect(form.pickedFile("Contract.pdf")).toContainText("Ready: 2 pages");
    await form.drop(await pdfFile("Addendum.pdf", `Addendum ${id}`));
    await expect(form.pickedFile("Addendum.pdf")).toContainText("Ready: 2 pages");

    await form.saveDraft();
    await expect(page).toHaveURL(/\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
    const signingPath = new URL(page.url()).pathname.replace(/\/edit$/, "");
    await expect(form.status).toHaveText("Draft saved.");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Edit “${title}”`);
    await expect(form.attachedDocuments()).toHaveText([/Contract\.pdf/, /Addendum\.pdf/]);
    await expect(form.signerField(1, "Email")).toHaveValue(`avery.${id}@example.com`);
    await expect(form.signerField(2, "Role")).toHaveValue("co_signer");
    // The draft keeps the requests, shown as they were typed; the other signer was asked for none.
    await expect(form.signerField(1, "Attachments to ask for (optional)")).toHaveValue(asked);
    await expect(form.signerField(2, "Attachments to ask for (optional)")).toHaveValue("");
    await expectNoAxeViolations(page);

    // Edit: a new title, a third signer, one document removed and another added.
    await form.title().fill(`${title} (edited)`);
    await page.getByLabel("Remove Addendum.pdf when saving").check();
    await form.addSigner();
    await form.fillSigner(3, { name: "Casey Create", email: `casey.${id}@example.com`, order: 2 });
    await form.pick(await pdfFile("Rider.pdf", `Rider ${id}`));
    await expect(form.pickedFile("Rider.pdf")).toContainText("Ready");
    await form.saveDraft();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Edit “${title} (edited)”`);
    await expect(form.attachedDocuments()).toHaveText([/Contract\.pdf/, /Rider\.pdf/]);
    await expect(form.signerField(3, "Name")).toHaveValue("Casey Create");
    // Saving again changes nothing: the form starts from what was stored, not from what was picked.
    await form.saveDraft();
    await expect(form.attachedDocuments()).toHaveText([/Contract\.pdf/, /Rider\.pdf/]);
    await expect(form.signerField(4, "Name")).toHaveCount(0);

    // Send: the check says what each signer receives, then the package goes out.
    await form.openSendCheck();
    await expect(form.sendDialog.getByRole("list", { name: "Checks before sending" })).toContainText("3 signers");
    await expect(form.sendDialog).toContainText("2 documents");
    await expect(form.sendDialog).toContainText("Avery Create");
    await expect(form.sendDialog).toContainText("order 2: an invitation email once order 1 has signed");
    await expectNoAxeViolations(page);
    // Sending leaves the form for the package's page (/signings/<id>, which answers by role).
    await form.sendNow();
    await expect(page).not.toHaveURL(/\/edit/);
    // The package went out asking Avery for both, the license required (read from the run's PostgreSQL when it has one).
    const requests = e2eDatabaseUrl() ? await withE2eDb((db) =>
      db.select({ name: attachmentRequests.name, required: attachmentRequests.required, email: packageSigners.email }).from(attachmentRequests).innerJoin(packageSigners, eq(packageSigners.id, attachmentRequests.signerId)).where(eq(attachmentRequests.packageId, signingPath.split("/").at(-1)!)),
    ) : null;
    if (requests) expect(requests.map((r) => [r.email, r.name, r.required]).sort()).toEqual([
      [`avery.${id}@example.com`, "Driver's license, front and back", true],
      [`avery.${id}@example.com`, "Pay stub", false],
    ]);

    // Once sent, the package is frozen.
    await page.goto(`${signingPath}/edit`);
    await expect(page.getByRole("status")).toContainText("its documents and signers are frozen");
    await expect(page.getByRole("button", { name: "Save draft" })).toHaveCount(0);
  });

  test("uploads each PDF straight to storage with its own progress bar; a failed file is retried without losing the others", async ({ page }) => {
    const id = unique();
    await signInAs(page, "manager@demo.local");
    const form = await new SigningFormPage(page).gotoNew();
    await form.chooseLocation("Austin Branch");
    await form.title().fill(`E2E direct upload ${id}`);
    await form.fillSigner(1, { name: "Erin Upload", email: `erin.${id}@example.com` });

    // A PDF past a serverless host's 4.5 MB request limit: its bytes go in one PUT to the upload URL, not to the form's action.
    const { PDFDocument } = await import("pdf-lib");
    const doc = await PDFDocument.load(await renderAgreementPdf({ title: `Exhibits ${id}`, parties: ["Buyer"], pages: 2 }));
    doc.context.register(doc.context.stream(randomBytes(6 * 1024 * 1024)));
    const big = { name: "Exhibits.pdf", mimeType: "application/pdf", buffer: Buffer.from(await doc.save({ useObjectStreams: false })) };
    const puts: { url: string; size: number }[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT") puts.push({ url: request.url(), size: request.postDataBuffer()?.byteLength ?? 0 });
    });
    // Slow the PUT down so the bar is seen moving.
    await page.route("**/v1/uploads/*/content", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    await form.pick(big);
    await expect(form.pickedFile("Exhibits.pdf").getByRole("progressbar", { name: "Uploading Exhibits.pdf" })).toBeVisible();
    await expect(form.pickedFile("Exhibits.pdf")).toContainText("Ready: 2 pages", { timeout: 30_000 });
    expect(puts).toEqual([{ url: expect.stringMatching(/\/v1\/uploads\/[0-9a-f-]{36}\/content$/), size: big.buffer.byteLength }]);
    await page.unroute("**/v1/uploads/*/content");

    // The next file's PUT fails once (the connection drops); the first file keeps its Ready state, and Retry sends it again.
    let failures = 1;
    await page.route("**/v1/uploads/*/content", (route) => (failures-- > 0 ? route.abort("connectionreset") : route.continue()));
    await form.pick(await pdfFile("Rider.pdf", `Rider ${id}`));
    await expect(form.pickedFile("Rider.pdf")).toContainText("Not attached: The upload did not reach storage.");
    await expect(form.pickedFile("Exhibits.pdf")).toContainText("Ready: 2 pages");
    await form.pickedFile("Rider.pdf").getByRole("button", { name: "Retry Rider.pdf" }).click();
    await expect(form.pickedFile("Rider.pdf")).toContainText("Ready: 2 pages");
    await expectNoAxeViolations(page);

    // Saving posts the upload ids only: no file travels with the form's own request.
    const action = page.waitForRequest((request) => request.method() === "POST" && request.headers()["next-action"] !== undefined);
    await form.saveDraft();
    expect((await action).postDataBuffer()?.byteLength ?? 0).toBeLessThan(100_000);
    await expect(page).toHaveURL(/\/edit\?saved=1$/);
    await expect(form.attachedDocuments()).toHaveText([/Exhibits\.pdf/, /Rider\.pdf/]);
  });

  test("works without JavaScript: signer rows round-trip with what was typed, a PDF posts with the form", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const id = unique();
    await signInAs(page, "manager@demo.local");
    const form = await new SigningFormPage(page).gotoNew();
    await form.chooseLocation("Dallas Branch");
    await form.title().fill(`E2E no-JS ${id}`);
    await form.fillSigner(1, { name: "Casey NoJs", email: `casey.${id}@example.com` });
    await form.addSigner();
    await expect(form.signerField(1, "Name")).toHaveValue("Casey NoJs");
    await expect(form.title()).toHaveValue(`E2E no-JS ${id}`);
    await form.fillSigner(2, { name: "Drew NoJs", email: "not-an-email" });
    await form.pick(await pdfFile("Deed.pdf", `Deed ${id}`));
    await form.saveDraft();
    // The API's rule, on the field, with everything else kept.
    await expect(form.status).toHaveText("expected an email address");
    await expect(page.locator(`#${await form.signerField(2, "Email").getAttribute("id")}-error`)).toHaveText("expected an email address");
    await expect(form.signerField(2, "Email")).toHaveAttribute("aria-invalid", "true");
    await expect(form.signerField(1, "Name")).toHaveValue("Casey NoJs");
    await form.signerField(2, "Email").fill(`drew.${id}@example.com`);
    await form.pick(await pdfFile("Deed.pdf", `Deed ${id}`));
    await form.saveDraft();
    await expect(page).toHaveURL(/\/edit\?saved=1$/);
    await expect(form.attachedDocuments()).toHaveText([/Deed\.pdf/]);
    await expect(form.signerField(2, "Email")).toHaveValue(`drew.${id}@example.com`);
    await context.close();
  });
});

test.describe("bulk sending", { tag: "@desktop" }, () => {
  test("checks every row first, creates nothing while one is wrong, then creates and sends the rest", async ({ page }) => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to add a template");
    const id = unique();
    const templateName = `E2E bulk template ${id}`;
    await withE2eDb(async (db) => {
      const [org] = await db.select().from(organizations).where(eq(organizations.name, "Demo Lending Co."));
      const [owner] = await db.select().from(users).where(eq(users.email, "owner@demo.local"));
      const principal = await resolvePrincipal(db, owner!.authSubject ?? localSubjectForEmail("owner@demo.local"));
      const template = await createTemplate(db, {
        principal,
        organizationId: org!.id,
        name: templateName,
        roles: [{ key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 }],
      });
      const bytes = await renderAgreementPdf({ title: `Bulk ${id}`, parties: ["Buyer"], pages: 1 });
      await addTemplateDocument(db, { principal, templateId: template.id, name: "Bulk contract.pdf", bytes });
    });

    await signInAs(page, "manager@demo.local");
    // On the single-package form, the template fills the signer rows with its roles and lists its documents.
    const form = await new SigningFormPage(page).gotoNew();
    await form.chooseLocation("Austin Branch");
    await page.getByLabel("Template").selectOption({ label: templateName });
    await expect(page.getByRole("group", { name: "Signer 1 — Buyer" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "From the template, first", level: 3 })).toBeVisible();
    await expect(page.getByRole("list", { name: "Template documents" })).toContainText("Bulk contract.pdf");
    await expect(page.getByRole("combobox", { name: "How Bulk contract.pdf is signed" })).toHaveValue("esign");

    const bulk = await new BulkSendPage(page).goto();
    await expectNoAxeViolations(page);
    const good = [`Erin Bulk,erin.${id}@example.com,Austin Branch`, `Finn Bulk,finn.${id}@example.com,Dallas Branch`];
    await bulk.fill(templateName, ["name,email,location", good[0], "Gale Bulk,gale-at-example,Austin Branch", good[1]].join("\n"));
    await bulk.check();
    await expect(bulk.row(3)).toContainText("Error: email: expected an email address");
    await expect(bulk.row(2)).toContainText("Ready");
    await expectNoAxeViolations(page);

    await bulk.send();
    await expect(page.getByText("Nothing was created: 1 of 3 rows need fixing.")).toBeVisible();
    await expect(bulk.row(2)).toContainText("Not created");

    await page.getByLabel("Signers (CSV)").fill(["name,email,location", good[0], `Gale Bulk,gale.${id}@example.com,Austin Branch`, good[1]].join("\n"));
    await bulk.send();
    await expect(page.getByText("3 packages created and sent now.")).toBeVisible();
    for (const line of [2, 3, 4]) await expect(bulk.row(line)).toContainText(`Sent: ${templateName} —`);
    await expectNoAxeViolations(page);
  });
});
