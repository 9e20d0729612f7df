import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { writeFileSync } from "node:fs";
import { devices, type Page } from "@playwright/test";
import { and, eq, inArray } from "drizzle-orm";
import { lastDeliveredMailTo } from "../helpers/mail";
import { openDb, type DbHandle } from "@/db/client";
import { auditLog, bankItems, packageSeals, packageSigners, signingPackages, users } from "@/db/schema";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { startFakePlaid, type FakePlaid } from "../fakes/plaid/server";
import { BankStepPage } from "./pages/bank-step-page";
import { SignPanel } from "./pages/sign-panel";
import { SigningFormPage } from "./pages/signing-form-page";
import { DonePage } from "./pages/signing-page";
import { createJourneyDatabase } from "./support/journey-database";
import { startNextServer, type NextServer } from "./support/next-server";
import { routePlaidLink } from "./support/plaid-link";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test as base } from "./support/fixtures";

/**
 * Issue 19's journey: a manager sends a package to two people who have never used the product, one
 * proving who they are with a code mailed to them (`email_code`), the other with an access code the
 * lender typed (`access_code`). Each opens the emailed link (the interstitial's POST), passes the
 * proof, consents, signs, links a bank through the fake Plaid Link and downloads the sealed PDF from
 * the done page; no account is created, and the certificate names both methods (pdftotext).
 *
 * The manager makes and sends the package in the console's package form (the package's method, one
 * signer's own method and the access code typed on their row) in a desktop window of its own. Emails are read from the `send-email` jobs, which is what the dev outbox lists (/dev/outbox is
 * a 404 under `next start`).
 *
 * Own server and database (as signing-journey.spec.ts): PLAID_* at a fake Plaid server.
 */

const ELLA = { name: "Ella Emailcode", email: "ella.emailcode@example.com" };
const ARLO = { name: "Arlo Accesscode", email: "arlo.accesscode@example.com" };
const ACCESS_CODE = "78701";

type Journey = { server: NextServer; plaid: FakePlaid; db: DbHandle };

const test = base.extend<{ journey: Journey }>({
  journey: async ({}, provide, testInfo) => {
    testInfo.skip(!e2eDatabaseUrl(), "needs PostgreSQL: the journey's server gets a database beside the run's");
    const database = await createJourneyDatabase();
    const plaid = await startFakePlaid();
    const server = await startNextServer(() => ({
      DATABASE_URL: database.url,
      PLAID_CLIENT_ID: plaid.clientId,
      PLAID_SECRET: plaid.secret,
      PLAID_BASE_URL: plaid.url,
      PLAID_ENV: "sandbox",
      BANK_TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    }));
    const db = await openDb({ url: database.url }, { max: 1 });
    try {
      await provide({ server, plaid, db });
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) writeFileSync(testInfo.outputPath("access-server.log"), server.log());
      await db.close();
      await server.stop();
      await plaid.close();
      await database.drop();
    }
  },
  baseURL: async ({ journey }, provide) => {
    await provide(journey.server.baseUrl);
  },
  fakePlaid: async ({ journey }, provide) => {
    await provide(journey.plaid);
  },
});

test.describe.configure({ timeout: 300_000 });

/** The newest email delivered to `to` (what the dev outbox shows; queued `send-email` jobs run first). */
async function lastMailTo(journey: Journey, to: string): Promise<{ subject: string; text: string }> {
  return lastDeliveredMailTo(journey.db.db, to);
}

async function linkFromMail(journey: Journey, to: string): Promise<string> {
  const match = /https?:\/\/\S+\/access\/[A-Za-z0-9_-]{43}/.exec((await lastMailTo(journey, to)).text);
  if (!match) throw new Error(`no access link in the last mail to ${to}`);
  // The mail's address is APP_URL's; the path is what matters.
  return new URL(match[0]).pathname;
}

async function codeFromMail(journey: Journey, to: string): Promise<string> {
  // The code follows "is" ("Your code to open "<title>" is 123456."): the title before it may hold
  // six digits of its own (a random hex suffix that happens to be all digits).
  const match = / is (\d{6})\b/.exec((await lastMailTo(journey, to)).text);
  if (!match) throw new Error(`no code in the last mail to ${to}`);
  return match[1]!;
}

/** The interstitial: title, sender, one button whose POST opens the link; no token left in the URL. */
async function openInvitation(page: Page, path: string, title: string, shot: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  // The lender's mark on top, and the card saying who sent it.
  await expect(page.getByRole("region", { name: title }).getByText("Demo Lending Co.")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath(`${shot}-interstitial.png`), fullPage: true });
  await page.getByRole("button", { name: "Open the documents" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/access/") || url.pathname.startsWith("/access/verify/"));
  expect(page.url()).not.toContain(path.split("/").at(-1)!);
}

/** Consent → adopt a typed signature → sign each document → bank (fake Plaid Link) → done. */
async function signAndLinkBank(page: Page, name: string, together: string | null, shot: string): Promise<void> {
  await page.waitForURL(/\/signings\/[0-9a-f-]{36}$/);
  const panel = new SignPanel(page);
  await expect(panel.agree).toBeVisible();
  if (together) await expect(page.getByText(together).filter({ visible: true }).first()).toBeVisible();
  else await expect(page.getByText(/can sign now, in any order/)).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath(`${shot}-package.png`), fullPage: true });
  await expectNoAxeViolations(page);
  await panel.consent();
  await panel.openDialog();
  await panel.dialog.getByRole("radio", { name: /Great Vibes/ }).check();
  await panel.dialog.getByRole("button", { name: "Adopt signature" }).click();
  await expect(panel.dialog).toBeHidden();
  await expect(page.getByRole("img", { name: `Your adopted signature: ${name}` })).toBeVisible();
  await panel.signButton("Note.pdf").click();
  await expect(page.getByRole("heading", { name: "You’ve signed every document. Next: link your bank" })).toBeVisible();
  await page.getByRole("link", { name: "Continue to bank" }).filter({ visible: true }).first().click();
  const bank = new BankStepPage(page);
  await expect(bank.heading).toBeVisible();
  await expectNoAxeViolations(page);
  await bank.linkButton.click();
  await expect(bank.connectedHeading).toBeVisible();
  await expect(bank.institution).toHaveText("First Platypus Bank");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath(`${shot}-bank.png`), fullPage: true });
  await bank.continueLink(/^Continue$/).click();
  await expect(new DonePage(page).heading).toBeVisible();
}

test("two borrowers without accounts open the emailed links, prove who they are (email code, access code), sign, link a bank and download the sealed PDF", { tag: "@desktop" }, async ({
  page,
  browser,
  journey,
}) => {
  const { db } = journey.db;
  const usersBefore = (await db.select({ id: users.id }).from(users)).length;

  // The manager's package, made and sent in the console's package form to two new addresses: Ella
  // proves who she is by a mailed code (the package's method), Arlo by the access code the lender types.
  const title = `Home equity loan — ${randomBytes(3).toString("hex")}`;
  const console_ = await browser.newContext({ viewport: { width: 1280, height: 800 }, baseURL: journey.server.baseUrl });
  let packageId: string;
  try {
    const managerPage = await console_.newPage();
    await signInAs(managerPage, "manager@demo.local");
    const form = await new SigningFormPage(managerPage).gotoNew();
    await form.chooseLocation("Austin Branch");
    await form.title().fill(title);
    await form.fillSigner(1, { ...ELLA, role: "Signer" });
    await form.addSigner();
    await form.fillSigner(2, { ...ARLO, role: "Co-signer", order: 1 });
    await managerPage.getByLabel("How signers prove who they are").selectOption({ label: "A code sent by email" });
    await managerPage.getByLabel("Signer 2 Proves who they are with").selectOption({ label: "An access code you give them" });
    await managerPage.getByLabel("Signer 2 Access code", { exact: true }).fill(ACCESS_CODE);
    await form.pick({ name: "Note.pdf", mimeType: "application/pdf", buffer: Buffer.from(await renderAgreementPdf({ title, parties: [ELLA.name, ARLO.name], pages: 1 })) });
    await expect(form.pickedFile("Note.pdf")).toContainText("Ready");
    await form.saveDraft();
    await expect(managerPage).toHaveURL(/\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
    packageId = /\/signings\/([0-9a-f-]{36})\/edit/.exec(managerPage.url())![1]!;
    await form.openSendCheck();
    await form.sendNow();
    await expect(managerPage).toHaveURL(new RegExp(`/signings/${packageId}$`));
    await expect(managerPage.getByRole("listitem", { name: ARLO.name })).toContainText("Access code from the sender · code set");
    // The code the lender typed is never shown back.
    expect(await managerPage.content()).not.toContain(ACCESS_CODE);
  } finally {
    await console_.close();
  }
  const created = { id: packageId };

  // Ella, on a desktop.
  await routePlaidLink(page, journey.plaid);
  const ellaLink = await linkFromMail(journey, ELLA.email);
  await openInvitation(page, ellaLink, title, "ella");
  await page.waitForURL(/\/access\/verify\//);
  await expect(page.getByRole("heading", { level: 1, name: "Check your email for a code" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath("ella-code.png"), fullPage: true });
  const code = await codeFromMail(journey, ELLA.email);
  const wrong = code === "000000" ? "111111" : "000000";
  await page.getByLabel("Code from the email").fill(wrong);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not right" })).toHaveText("That code is not right. Check it and try again.");
  await expect(page.getByLabel("Code from the email")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);
  await page.getByLabel("Code from the email").fill(code);
  await page.getByRole("button", { name: "Continue" }).click();
  // Arlo signs at the same time: the page says so.
  await signAndLinkBank(page, ELLA.name, `You and ${ARLO.name} can sign now, in any order.`, "ella");

  // The used link now offers a new one, with the same answer whoever asks.
  await page.goto(ellaLink);
  await expect(page.getByRole("heading", { level: 1, name: "This link no longer works" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("button", { name: "Email me a new link" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Check your email" })).toBeVisible();
  await expectNoAxeViolations(page);

  // Arlo, on a phone.
  const phone = await browser.newContext({ ...devices["Pixel 7"], viewport: { width: 390, height: 844 }, screen: { width: 390, height: 844 }, baseURL: journey.server.baseUrl });
  try {
    const arlo = await phone.newPage();
    await routePlaidLink(arlo, journey.plaid);
    const arloLink = await linkFromMail(journey, ARLO.email);
    await openInvitation(arlo, arloLink, title, "arlo");
    await arlo.waitForURL(/\/access\/verify\//);
    await expect(arlo.getByRole("heading", { level: 1, name: "Enter your access code" })).toBeVisible();
    await expectNoAxeViolations(arlo);
    await arlo.getByRole("textbox", { name: "Access code" }).fill("00000");
    await arlo.getByRole("button", { name: "Continue" }).click();
    await expect(arlo.getByRole("alert").filter({ hasText: "That code is not right" })).toHaveText("That code is not right. Check it and try again.");
    await expectNoAxeViolations(arlo);
    await arlo.screenshot({ path: test.info().outputPath("arlo-wrong-code.png"), fullPage: true });
    await arlo.getByRole("textbox", { name: "Access code" }).fill(ACCESS_CODE);
    await arlo.getByRole("button", { name: "Continue" }).click();
    await signAndLinkBank(arlo, ARLO.name, null, "arlo");
    expect(await arlo.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await arlo.screenshot({ path: test.info().outputPath("arlo-done.png"), fullPage: true });
  } finally {
    await phone.close();
  }

  // Completed; every wrong code counted (audit), no account made, both banks on the signers.
  const [done] = await db.select().from(signingPackages).where(eq(signingPackages.id, created.id));
  expect(done!.status).toBe("completed");
  const failed = await db.select().from(auditLog).where(and(eq(auditLog.packageId, created.id), eq(auditLog.action, "signer.auth_failed")));
  expect(failed).toHaveLength(2);
  expect((await db.select({ id: users.id }).from(users)).length).toBe(usersBefore);
  const signerRows = await db.select().from(packageSigners).where(eq(packageSigners.packageId, created.id));
  expect(signerRows.map((s) => [s.email, s.userId, s.authPassedMethod]).sort()).toEqual([
    [ARLO.email, null, "access_code"],
    [ELLA.email, null, "email_code"],
  ]);
  const banks = await db.select().from(bankItems).where(inArray(bankItems.signerId, signerRows.map((s) => s.id)));
  expect(banks.map((b) => [b.userId, b.institutionName])).toEqual([
    [null, "First Platypus Bank"],
    [null, "First Platypus Bank"],
  ]);

  // Ella downloads the sealed PDF from her done page (her session is still open); its certificate names both methods.
  await expect
    .poll(async () => (await db.select({ s: packageSeals.status }).from(packageSeals).where(eq(packageSeals.packageId, created.id)))[0]?.s, { timeout: 90_000 })
    .toBe("sealed");
  await page.goto(`/signings/${created.id}/done`);
  const sealed = page.getByRole("region", { name: "Sealed documents" });
  await expect(sealed.getByRole("link", { name: "Download sealed PDF of Note.pdf" })).toBeVisible();
  await expectNoAxeViolations(page);
  const downloading = page.waitForEvent("download");
  await sealed.getByRole("link", { name: "Download sealed PDF of Note.pdf" }).click();
  const pdfPath = test.info().outputPath("sealed.pdf");
  await writeFile(pdfPath, await readFile((await (await downloading).path())!));
  const text = execFileSync("pdftotext", ["-layout", pdfPath, "-"], { encoding: "utf8" });
  expect(text).toContain("Certificate of completion");
  expect(text).toContain(ELLA.name);
  expect(text).toContain(ARLO.name);
  expect(text).toContain("Code sent by email");
  expect(text).toContain("Access code from the sender");
});
