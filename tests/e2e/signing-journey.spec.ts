import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { devices, type Page } from "@playwright/test";
import { and, eq, inArray } from "drizzle-orm";
import { openDb, type DbHandle } from "@/db/client";
import { eSignatures, jobs, packageDocuments, packageSigners, signingPackages, vaultDeliveries } from "@/db/schema";
import { startFakePlaid, type FakePlaid } from "../fakes/plaid/server";
import { BankStepPage } from "./pages/bank-step-page";
import { SignPanel, signatureStrokes } from "./pages/sign-panel";
import { DonePage } from "./pages/signing-page";
import { createJourneyDatabase } from "./support/journey-database";
import { startNextServer, type NextServer } from "./support/next-server";
import { routePlaidLink } from "./support/plaid-link";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test as base } from "./support/fixtures";

/**
 * The whole signer journey of issue 10, twice: the demo signer (desktop, typed signature) and the demo
 * co-signer (phone, drawn signature) each complete the seeded sample package through the real pages —
 * consent, adopt, sign each document, link a bank through the fake Plaid Link, done — and the package
 * ends completed with one e-signature per signer and document and one vault event per e-signature.
 *
 * It runs on a server of its own (the same production build): the shared server has neither Plaid nor
 * a vault configured, and completing the demo package there would change what other files see. This
 * server has a fresh PostgreSQL database with the demo data, PLAID_* pointing at a fake Plaid server
 * and VAULT_WEBHOOK_URL pointing at a receiver in this test.
 */

const DEMO_TITLE = "Retail installment contract — Sam Signer";
const SAM = "signer@demo.local";
const CASEY = "cosigner@demo.local";
const VAULT_SECRET = "journey-vault-secret";

type VaultRequest = { headers: IncomingHttpHeaders; body: Record<string, unknown> };
type Journey = { server: NextServer; plaid: FakePlaid; db: DbHandle; vault: VaultRequest[] };

async function startVault(received: VaultRequest[]): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const address = server.address();
  if (!address || typeof address !== "object") throw new Error("vault receiver has no port");
  return { url: `http://127.0.0.1:${address.port}/events`, close: () => new Promise((r) => server.close(() => r())) };
}

const test = base.extend<{ journey: Journey }>({
  journey: async ({}, provide, testInfo) => {
    testInfo.skip(!e2eDatabaseUrl(), "needs PostgreSQL: the journey's server gets a database beside the run's");
    const database = await createJourneyDatabase();
    const vault: VaultRequest[] = [];
    const receiver = await startVault(vault);
    const plaid = await startFakePlaid();
    const server = await startNextServer(() => ({
      DATABASE_URL: database.url,
      PLAID_CLIENT_ID: plaid.clientId,
      PLAID_SECRET: plaid.secret,
      PLAID_BASE_URL: plaid.url,
      PLAID_ENV: "sandbox",
      BANK_TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      VAULT_WEBHOOK_URL: receiver.url,
      VAULT_WEBHOOK_SECRET: VAULT_SECRET,
    }));
    const db = await openDb({ url: database.url }, { max: 1 });
    try {
      await provide({ server, plaid, db, vault });
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) writeFileSync(testInfo.outputPath("journey-server.log"), server.log());
      await db.close();
      await server.stop();
      await plaid.close();
      await receiver.close();
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

test.describe.configure({ timeout: 240_000 });

/** Home → the demo package → consent → adopt (typed or drawn) → sign each document → bank → done. */
async function completeDemoPackage(page: Page, options: { email: string; documents: string[]; signature: "typed" | "drawn"; input: "mouse" | "touch" }): Promise<string> {
  await signInAs(page, options.email);
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: DEMO_TITLE, exact: true }).filter({ visible: true }).first().click();
  await page.waitForURL(/\/signings\/[0-9a-f-]{36}$/);
  const id = new URL(page.url()).pathname.split("/")[2]!;

  const panel = new SignPanel(page);
  await expect(panel.agree).toBeVisible();
  await expectNoAxeViolations(page);
  await panel.consent();
  await expectNoAxeViolations(page);

  if (options.signature === "typed") {
    await panel.openDialog();
    await expectNoAxeViolations(page);
    await panel.dialog.getByRole("radio", { name: /Great Vibes/ }).check();
    await panel.dialog.getByRole("button", { name: "Adopt signature" }).click();
    await expect(panel.dialog).toBeHidden();
    await expect(page.getByRole("img", { name: "Your adopted signature: Sam Signer" })).toBeVisible();
  } else {
    await panel.openDialog();
    const canvas = await panel.chooseDraw();
    await expectNoAxeViolations(page);
    const box = (await canvas.boundingBox())!;
    await panel.draw(canvas, signatureStrokes(box.width, box.height), options.input);
    await expect(canvas).toHaveAccessibleName("Signature drawing area, 2 strokes drawn");
    await panel.dialog.getByRole("button", { name: "Adopt signature" }).click();
    await expect(panel.dialog).toBeHidden();
    await expect(page.getByRole("img", { name: "Your adopted signature, drawn" })).toBeVisible();
  }

  const last = options.documents.at(-1);
  for (const name of options.documents) {
    await panel.signButton(name).click();
    // Each document shows as signed; after the last one the page moves on by itself (no reload).
    if (name !== last) await expect(panel.documentRow(name)).toContainText("Signed");
  }

  // Everything signed and no bank yet: the package page leads to the bank step.
  await expect(page.getByRole("heading", { name: "You’ve signed every document. Next: link your bank" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.reload();
  await expect(page.getByText("You’ve signed every document. Next: link your bank")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Continue to bank" }).filter({ visible: true }).first().click();
  const bank = new BankStepPage(page);
  await expect(bank.heading).toBeVisible();
  await expectNoAxeViolations(page);
  await bank.linkButton.click();
  await expect(bank.connectedHeading).toBeVisible();
  await expect(bank.institution).toHaveText("First Platypus Bank");
  await expectNoAxeViolations(page);
  await bank.continueLink(/^Continue$/).click();
  await expect(new DonePage(page).heading).toBeVisible();
  return id;
}

test("the demo signer (typed, desktop) and co-signer (drawn, phone) complete the sample package with a bank linked", { tag: "@desktop" }, async ({
  page,
  browser,
  journey,
}) => {
  const { db } = journey.db;
  const [demo] = await db.select().from(signingPackages).where(eq(signingPackages.title, DEMO_TITLE));
  const documents = await db.select().from(packageDocuments).where(eq(packageDocuments.packageId, demo!.id));
  const documentNames = documents.map((d) => d.name);
  expect(documentNames.length).toBeGreaterThan(0);

  // Sam, on a desktop, types his signature.
  const samLink = await routePlaidLink(page, journey.plaid);
  const id = await completeDemoPackage(page, { email: SAM, documents: documentNames, signature: "typed", input: "mouse" });
  expect(id).toBe(demo!.id);
  const samDone = new DonePage(page);
  await expect(samDone.status).toHaveText("Waiting for Casey Cosigner.");
  await expectNoAxeViolations(page);
  expect(samLink.opens.map((o) => o.outcome.kind)).toEqual(["success"]);

  // Casey, on a phone, draws hers with a finger.
  const phone = await browser.newContext({ ...devices["Pixel 7"], viewport: { width: 390, height: 844 }, screen: { width: 390, height: 844 }, baseURL: journey.server.baseUrl });
  try {
    const caseyPage = await phone.newPage();
    const caseyLink = await routePlaidLink(caseyPage, journey.plaid);
    await completeDemoPackage(caseyPage, { email: CASEY, documents: documentNames, signature: "drawn", input: "touch" });
    const caseyDone = new DonePage(caseyPage);
    await expect(caseyDone.status).toHaveText("Everyone has signed.");
    await expect(caseyPage.getByText("Everyone has signed, so the package is complete.")).toBeVisible();
    await expectNoAxeViolations(caseyPage);
    expect(await caseyPage.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(caseyLink.opens.map((o) => o.outcome.kind)).toEqual(["success"]);
  } finally {
    await phone.close();
  }

  // Sam's done page follows without a reload (refresh on focus).
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect(samDone.status).toHaveText("Everyone has signed.");

  const [completed] = await db.select().from(signingPackages).where(eq(signingPackages.id, demo!.id));
  expect(completed!.status).toBe("completed");
  const signers = await db.select().from(packageSigners).where(eq(packageSigners.packageId, demo!.id));
  expect(signers.map((s) => [s.email, s.status]).sort()).toEqual([
    [CASEY, "signed"],
    [SAM, "signed"],
  ]);

  const records = await db.select().from(eSignatures).where(eq(eSignatures.packageId, demo!.id));
  const expected = signers.flatMap((s) => documents.map((d) => `${s.id}/${d.id}`)).sort();
  expect(records.map((r) => `${r.signerId}/${r.documentId}`).sort()).toEqual(expected);
  const kindOf = (email: string) => new Set(records.filter((r) => r.signerId === signers.find((s) => s.email === email)!.id).map((r) => r.kind));
  expect([...kindOf(SAM)]).toEqual(["typed"]);
  expect([...kindOf(CASEY)]).toEqual(["drawn"]);

  const recordIds = records.map((r) => r.id).sort();
  const vaultJobs = await db.select().from(jobs).where(and(eq(jobs.name, "deliver-vault-event"), inArray(jobs.idempotencyKey, recordIds)));
  expect(vaultJobs.map((j) => j.idempotencyKey).sort()).toEqual(recordIds);
  // The local job worker delivers them: one 2xx delivery per e-signature, and one POST each at the vault.
  await expect
    .poll(async () => (await db.select().from(vaultDeliveries).where(inArray(vaultDeliveries.eSignatureId, recordIds))).filter((d) => d.statusCode === 200).map((d) => d.eSignatureId).sort(), {
      timeout: 60_000,
    })
    .toEqual(recordIds);
  expect(journey.vault).toHaveLength(recordIds.length);
  for (const request of journey.vault) {
    expect(request.headers.authorization).toBe(`Bearer ${VAULT_SECRET}`);
    expect(request.body).toMatchObject({ type: "signer_document_signed", signingId: demo!.id, firstESign: true });
  }
  expect(journey.vault.map((r) => r.headers["idempotency-key"]).sort()).toEqual(recordIds);
  expect(journey.vault.map((r) => r.body.documentId).sort()).toEqual(records.map((r) => r.documentId).sort());
});
