import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { writeFileSync } from "node:fs";
import { devices, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { and, eq } from "drizzle-orm";
import { lastDeliveredMailTo } from "../helpers/mail";
import { openDb, type DbHandle } from "@/db/client";
import { auditLog, packageSeals, packageSigners } from "@/db/schema";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { startFakePlaid, type FakePlaid } from "../fakes/plaid/server";
import { startFakeTwilio, type FakeTwilio } from "../fakes/twilio/start-fake-twilio";
import { pngDataUrl } from "../helpers/signing-fixtures";
import { SigningFormPage } from "./pages/signing-form-page";
import { createJourneyDatabase } from "./support/journey-database";
import { startNextServer, type NextServer } from "./support/next-server";
import { routePlaidLink } from "./support/plaid-link";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test as base } from "./support/fixtures";

/**
 * Issue 21's journey: a lender with a logo and a brand colour (set in the workspace settings, in the
 * browser) sends a package to a Spanish-speaking borrower with a mobile number and an attested consent
 * to texts. The invitation email (the `send-email` job, what the dev outbox lists) and the text (as
 * the fake Twilio received it through the real `twilio` SDK) are Spanish and carry the lender's brand;
 * the borrower opens the texted link on a phone, reads every page in Spanish under the lender's logo
 * and colour (axe at 390 and 1280 px), switches to English and back, signs, links a bank (fake Plaid
 * Link) and downloads the certificate, which embeds the logo (pdfimages) and records the Spanish
 * disclosure (pdftotext).
 *
 * Own server and database (as signer-access.spec.ts): TWILIO_* at a fake Twilio, PLAID_* at a fake Plaid.
 */

const LENDER = "Préstamos del Valle";
/** A dark green: white text on it reaches 4.5:1. */
const COLOR = "#0f5132";
const COLOR_RGB = "rgb(15, 81, 50)";
const BORROWER = { name: "Lucía Ramírez", email: "lucia.ramirez@example.com", phone: "+15125550123" };
/** The logo's size in pixels: pdfimages lists the embedded image at this size. */
const LOGO = { width: 160, height: 40 };

type Journey = { server: NextServer; twilio: FakeTwilio; plaid: FakePlaid; db: DbHandle };

const test = base.extend<{ journey: Journey }>({
  journey: async ({}, provide, testInfo) => {
    testInfo.skip(!e2eDatabaseUrl(), "needs PostgreSQL: the journey's server gets a database beside the run's");
    const database = await createJourneyDatabase();
    const twilio = await startFakeTwilio();
    const plaid = await startFakePlaid();
    const server = await startNextServer(() => ({
      DATABASE_URL: database.url,
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: "+15125550100",
      TWILIO_API_BASE_URL: twilio.url,
      PLAID_CLIENT_ID: plaid.clientId,
      PLAID_SECRET: plaid.secret,
      PLAID_BASE_URL: plaid.url,
      PLAID_ENV: "sandbox",
      BANK_TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    }));
    const db = await openDb({ url: database.url }, { max: 1 });
    try {
      await provide({ server, twilio, plaid, db });
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) writeFileSync(testInfo.outputPath("journey-server.log"), server.log());
      await db.close();
      await server.stop();
      await plaid.close();
      await twilio.close();
      await database.drop();
    }
  },
  baseURL: async ({ journey }, provide) => {
    await provide(journey.server.baseUrl);
  },
});

test.describe.configure({ timeout: 600_000 });

type Mail = { to: string; subject: string; text: string; html?: string; fromName?: string; replyTo?: string };

/** The newest email delivered to `to` (what the dev outbox lists; queued `send-email` jobs run first), with the From header's display name. */
async function lastMailTo(journey: Journey, to: string): Promise<Mail> {
  const mail = await lastDeliveredMailTo(journey.db.db, to);
  return { ...mail, fromName: /^"([^"]*)"/.exec(mail.from)?.[1], replyTo: mail.replyTo ?? undefined };
}

/** The lender's mark on a borrower's page: the uploaded logo (alt: the lender's name) over a rule in the brand colour. */
async function expectBranded(page: Page): Promise<void> {
  const logo = page.getByRole("img", { name: LENDER, exact: true }).first();
  await expect(logo).toBeVisible();
  expect(await logo.getAttribute("src")).toMatch(/^\/branding\/\d+\/logo\?v=/);
  expect(await logo.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(LOGO.width);
}

/** axe and a full-page screenshot of the page as it is now. */
async function look(page: Page, shot: string): Promise<void> {
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath(`${shot}.png`), fullPage: true });
}

/** The same page at 1280 px in a desktop window with the borrower's cookies: branded, Spanish, no axe violation. */
async function lookOnDesktop(browser: Browser, phone: BrowserContext, baseURL: string, path: string, heading: string, shot: string): Promise<void> {
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL, storageState: await phone.storageState() });
  try {
    const page = await desktop.newPage();
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading }).first()).toBeVisible();
    await expectBranded(page);
    await look(page, `${shot}-1280`);
  } finally {
    await desktop.close();
  }
}

test("a Spanish-speaking borrower of a branded lender: Spanish, branded email and text, Spanish pages under the lender's mark, English on request, the certificate's logo and disclosure language", { tag: "@desktop" }, async ({
  browser,
  journey,
}) => {
  const baseURL = journey.server.baseUrl;
  const title = `Préstamo de auto — ${randomBytes(3).toString("hex")}`;

  // The lender's brand, set by the organization's owner in the workspace settings.
  const console_ = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL });
  let packageId: string;
  try {
    const owner = await console_.newPage();
    await signInAs(owner, "owner@demo.local");
    await owner.goto("/workspace/settings");
    await owner.getByLabel("Name borrowers see").fill(LENDER);
    await owner.getByLabel("Brand colour").fill(COLOR);
    await owner.getByRole("button", { name: "Save settings" }).click();
    await expect(owner.getByText("Settings saved.")).toBeVisible();
    const logo = Buffer.from(pngDataUrl(LOGO.width, LOGO.height).split(",")[1]!, "base64");
    await owner.getByLabel("Upload a logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logo });
    await owner.getByRole("button", { name: "Upload logo" }).click();
    await expect(owner.getByRole("img", { name: "The current logo" })).toBeVisible();
    await owner.close();
    await console_.clearCookies();

    // The manager's package for a Spanish-speaking borrower, with her mobile number and her consent to texts.
    const managerPage = await console_.newPage();
    await signInAs(managerPage, "manager@demo.local");
    const form = await new SigningFormPage(managerPage).gotoNew();
    await form.chooseLocation("Austin Branch");
    await form.title().fill(title);
    await form.fillSigner(1, { name: BORROWER.name, email: BORROWER.email, role: "Signer" });
    await managerPage.getByLabel("Signer 1 Language", { exact: true }).selectOption({ label: "Spanish" });
    await managerPage.getByLabel("Signer 1 Mobile number (optional)", { exact: true }).fill(BORROWER.phone);
    await managerPage.getByLabel(/Signer 1: The signer agreed to receive text messages/).check();
    await form.pick({ name: "Note.pdf", mimeType: "application/pdf", buffer: Buffer.from(await renderAgreementPdf({ title, parties: [BORROWER.name], pages: 1 })) });
    await expect(form.pickedFile("Note.pdf")).toContainText("Ready");
    await form.saveDraft();
    await expect(managerPage).toHaveURL(/\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
    packageId = /\/signings\/([0-9a-f-]{36})\/edit/.exec(managerPage.url())![1]!;
    await form.openSendCheck();
    await form.sendNow();
    await expect(managerPage).toHaveURL(new RegExp(`/signings/${packageId}$`));
  } finally {
    await console_.close();
  }

  // The invitation email: Spanish, from "<Lender> via Closing & Signing", the logo and the colour in its HTML.
  const mail = await lastMailTo(journey, BORROWER.email);
  expect(mail.subject).toBe(`Firme, por favor: ${title}`);
  expect(mail.fromName).toBe(`${LENDER} via Closing & Signing`);
  expect(mail.text).toContain(`Hola, ${BORROWER.name}:`);
  expect(mail.text).toContain("Abrir su paquete de firma");
  expect(mail.html).toContain('<html lang="es">');
  expect(mail.html).toMatch(new RegExp(`<img src="${baseURL.replace(/[.]/g, "\\.")}/branding/\\d+/logo\\?v=[^"]+" alt="${LENDER}"`));
  expect(mail.html).toContain(`background: ${COLOR}`);
  const mailLink = /https?:\/\/\S+\/access\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
  expect(mailLink).toBeTruthy();

  // The text, as Twilio received it: Spanish, the lender's name first (plain characters), the same link.
  await expect.poll(() => journey.twilio.messages.filter((m) => m.to === BORROWER.phone).length, { timeout: 30_000 }).toBe(1);
  const sms = journey.twilio.messages.find((m) => m.to === BORROWER.phone)!;
  expect(sms.body).toBe(`Prestamos del Valle: tiene documentos para revisar y firmar. ${mailLink} Responda STOP para no recibir mas textos.`);
  const link = new URL(/https?:\/\/\S+\/access\/[A-Za-z0-9_-]{43}/.exec(sms.body)![0]).pathname;

  // The borrower opens the texted link on her phone.
  const phone = await browser.newContext({ ...devices["Pixel 7"], viewport: { width: 390, height: 844 }, screen: { width: 390, height: 844 }, baseURL });
  try {
    const page = await phone.newPage();
    await routePlaidLink(page, journey.plaid);
    await page.goto(link);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText("Este enlace funciona una sola vez.", { exact: false })).toBeVisible();
    await expectBranded(page);
    const open = page.getByRole("button", { name: "Abrir los documentos" });
    await expect(open).toHaveCSS("background-color", COLOR_RGB);
    await look(page, "interstitial-390");
    await open.click();

    // The demo lender asks for a code sent by email: the page and the code's email are Spanish too.
    await page.waitForURL(/\/access\/verify\//);
    await expect(page.getByRole("heading", { level: 1, name: "Busque el código en su correo electrónico" })).toBeVisible();
    await expectBranded(page);
    await look(page, "code-390");
    const codeMail = await lastMailTo(journey, BORROWER.email);
    expect(codeMail.subject).toBe(`Su código para ${title}`);
    expect(codeMail.fromName).toBe(`${LENDER} via Closing & Signing`);
    expect(codeMail.html).toContain('<html lang="es">');
    const code = /es (\d{6})\./.exec(codeMail.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel("Código del correo electrónico").fill(code!);
    await page.getByRole("button", { name: "Continuar", exact: true }).click();

    // The package page: Spanish, the lender's mark and colour.
    await page.waitForURL(new RegExp(`/signings/${packageId}$`));
    await expect(page.getByRole("heading", { name: "Acepte firmar electrónicamente" })).toBeVisible();
    await expect(page.locator("[lang=es]").first()).toBeVisible();
    await expectBranded(page);
    const agree = page.getByRole("button", { name: "Aceptar y continuar" });
    await expect(agree).toHaveCSS("background-color", COLOR_RGB);
    // The viewer's controls in Spanish (the PDF loads in the page's own viewer).
    await expect(page.getByText("Página 1 de 1").first()).toBeVisible();
    await expect(page.getByRole("button", { name: "Acercar" }).first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Mensajes de texto" })).toContainText("al número que termina en 0123");
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await look(page, "package-390");
    await lookOnDesktop(browser, phone, baseURL, `/signings/${packageId}`, "Acepte firmar electrónicamente", "package");

    // English on request, remembered; and back to Spanish.
    await page.getByRole("button", { name: "View this page in English" }).click();
    await expect(page.getByRole("heading", { name: "Agree to sign electronically" })).toBeVisible();
    await expect(page.getByText("Page 1 of 1").first()).toBeVisible();
    await expectBranded(page);
    await page.reload();
    await expect(page.getByRole("heading", { name: "Agree to sign electronically" })).toBeVisible();
    await look(page, "package-english-390");
    await page.getByRole("button", { name: "Ver esta página en español" }).click();
    await expect(page.getByRole("heading", { name: "Acepte firmar electrónicamente" })).toBeVisible();

    // Consent to the Spanish disclosure, adopt a signature in the Spanish dialog, sign.
    await page.getByLabel("He leído esta divulgación y acepto recibir y firmar estos documentos de forma electrónica.").check();
    await agree.click();
    await expect(page.getByRole("heading", { name: "Su firma" })).toBeVisible();
    await page.getByRole("button", { name: "Adoptar su firma" }).click();
    const dialog = page.getByRole("dialog", { name: "Adopte su firma" });
    await expect(dialog).toBeVisible();
    await dialog.getByRole("tab", { name: "Dibujar" }).click();
    await expect(dialog.getByRole("img", { name: "Área para dibujar la firma, vacía" })).toBeVisible();
    await dialog.getByRole("button", { name: "Adoptar firma" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Primero dibuje su firma en el recuadro.");
    await dialog.getByRole("tab", { name: "Escribir" }).click();
    await expect(dialog.getByLabel("Su nombre tal como lo firma")).toHaveValue(BORROWER.name);
    await dialog.getByRole("radio", { name: /Great Vibes/ }).check();
    await look(page, "adopt-390");
    await dialog.getByRole("button", { name: "Adoptar firma" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("img", { name: `Su firma adoptada: ${BORROWER.name}` })).toBeVisible();
    await page.getByRole("button", { name: "Firmar Note.pdf" }).click();
    await expect(page.getByRole("heading", { name: "Usted firmó todos los documentos. Siguiente paso: vincular su banco" })).toBeVisible();
    const consented = await journey.db.db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.packageId, packageId), eq(auditLog.action, "signer.consented")));
    expect(consented[0]?.after).toMatchObject({ disclosureLanguage: "es" });

    // The bank step, its widget in Spanish.
    await page.getByRole("link", { name: "Continuar al banco" }).filter({ visible: true }).first().click();
    await expect(page.getByRole("heading", { level: 1, name: "Vincular su banco" })).toBeVisible();
    await expectBranded(page);
    await look(page, "bank-390");
    await page.getByRole("button", { name: "Vincular su banco", exact: true }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Conectada" })).toBeVisible();
    await expect(page.getByText("Su prestamista ya puede configurar los pagos desde esta cuenta.")).toBeVisible();
    await look(page, "bank-connected-390");
    await page.getByRole("link", { name: /^Continuar$/ }).filter({ visible: true }).first().click();

    // The done page: Spanish, branded, the sealed copies once sealing has run.
    await expect(page.getByRole("heading", { level: 1, name: "Usted firmó" })).toBeVisible();
    await expect
      .poll(async () => (await journey.db.db.select({ s: packageSeals.status }).from(packageSeals).where(eq(packageSeals.packageId, packageId)))[0]?.s, { timeout: 90_000 })
      .toBe("sealed");
    await page.reload();
    const sealed = page.getByRole("region", { name: "Documentos sellados" });
    await expect(sealed.getByRole("link", { name: "Descargar PDF sellado de Note.pdf" })).toBeVisible();
    await expectBranded(page);
    await look(page, "done-390");
    await lookOnDesktop(browser, phone, baseURL, `/signings/${packageId}/done`, "Usted firmó", "done");

    // The certificate: the lender's logo embedded, and the disclosure she agreed to, in Spanish.
    const downloading = page.waitForEvent("download");
    await sealed.getByRole("link", { name: "Descargar certificado" }).click();
    const pdfPath = test.info().outputPath("certificate.pdf");
    await writeFile(pdfPath, await readFile((await (await downloading).path())!));
    const images = execFileSync("pdfimages", ["-list", pdfPath], { encoding: "utf8" });
    expect(images.split("\n").some((line) => new RegExp(`^\\s*1\\s+\\d+\\s+image\\s+${LOGO.width}\\s+${LOGO.height}\\s`).test(line))).toBe(true);
    const text = execFileSync("pdftotext", ["-layout", pdfPath, "-"], { encoding: "utf8" });
    expect(text).toContain("Certificate of completion");
    expect(text).toContain(`For ${LENDER}`);
    expect(text).toContain(BORROWER.name);
    expect(text).toMatch(/Disclosure agreed to:?\s+version \S+, in Spanish/);
  } finally {
    await phone.close();
  }
  const [signer] = await journey.db.db.select().from(packageSigners).where(eq(packageSigners.packageId, packageId));
  expect(signer!.status).toBe("signed");
});
