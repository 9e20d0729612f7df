import { randomUUID } from "node:crypto";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { SigningFormPage } from "./pages/signing-form-page";
import { expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

// The package form with an access code (docs/signer-access.md, "For lenders and closing teams"):
// the input appears for the method that needs it, is required, is never shown again after saving,
// and the package page names each signer's method. Desktop-first, like the rest of the console.

test.describe("how signers prove who they are", { tag: "@desktop" }, () => {
  test("an access code: asked on the row, required, write-only on the draft; the package page names the method", async ({ page }, testInfo) => {
    const id = randomUUID().slice(0, 8);
    const code = `ZIP-${id}`;
    await signInAs(page, "manager@demo.local");
    const form = await new SigningFormPage(page).gotoNew();
    await form.chooseLocation("Austin Branch");
    await form.title().fill(`E2E proof ${id}`);
    await form.fillSigner(1, { name: "Pat Proof", email: `pat.${id}@example.com` });
    await form.addSigner();
    await form.fillSigner(2, { name: "Lee Link", email: `lee.${id}@example.com` });

    // No access code input while the method is a code by email.
    const accessCode = page.getByLabel("Signer 1 Access code", { exact: true });
    await expect(accessCode).toHaveCount(0);
    await page.getByLabel("How signers prove who they are").selectOption({ label: "An access code you give them" });
    await expect(accessCode).toBeVisible();
    // Signer 2 takes the emailed link instead: no code for them.
    await page.getByLabel("Signer 2 Proves who they are with").selectOption({ label: "The emailed link only" });
    await expect(page.getByLabel("Signer 2 Access code", { exact: true })).toHaveCount(0);
    await expect(page.getByLabel("Signer 1 Proves who they are with")).toHaveValue("");
    await expect(page.locator("#" + (await page.getByLabel("Signer 1 Proves who they are with").getAttribute("id")) + "-hint")).toHaveText("Now: an access code you give them.");

    await form.pick({ name: "Note.pdf", mimeType: "application/pdf", buffer: Buffer.from(await renderAgreementPdf({ title: `Note ${id}`, parties: ["Buyer"], pages: 1 })) });
    await expect(form.pickedFile("Note.pdf")).toContainText("Ready");

    // Saved without the code: the row says what is missing; nothing is saved.
    await form.saveDraft();
    await expect(page.locator(`#${await accessCode.getAttribute("id")}-error`)).toContainText("Enter an access code");
    await expect(accessCode).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/signings\/new$/);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath("form-access-code-missing-1280.png"), fullPage: true });

    await accessCode.fill(code);
    await form.saveDraft();
    await expect(page).toHaveURL(/\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
    const signingPath = new URL(page.url()).pathname.replace(/\/edit$/, "");

    // The draft: the method is kept, the code is never sent back to the browser.
    await expect(page.getByLabel("How signers prove who they are")).toHaveValue("access_code");
    await expect(page.getByLabel("Signer 2 Proves who they are with")).toHaveValue("link");
    const newCode = page.getByLabel("Signer 1 New access code", { exact: true });
    await expect(newCode).toHaveValue("");
    await expect(page.getByText("An access code is set. It is never shown again")).toBeVisible();
    expect(await page.content()).not.toContain(code);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath("form-access-code-draft-1280.png"), fullPage: true });

    // Send with the stored code (the input left empty), then the package page.
    await form.openSendCheck();
    await form.sendNow();
    await expect(page).toHaveURL(new RegExp(`${signingPath}$`));
    const pat = page.getByRole("listitem", { name: "Pat Proof" });
    await expect(pat).toContainText("Proof of identity: Access code from the sender (the package's method) · code set");
    await expect(pat).toContainText("Not passed yet · no wrong codes");
    await expect(page.getByRole("listitem", { name: "Lee Link" })).toContainText("Proof of identity: Email link");
    expect(await page.content()).not.toContain(code);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath("package-page-proof-1280.png"), fullPage: true });
  });
});
