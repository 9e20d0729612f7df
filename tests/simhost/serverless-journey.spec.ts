import { randomBytes } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { asc, eq } from "drizzle-orm";
import { openDb, type DbHandle } from "@/db/client";
import { outboxEmails, packageSeals, signingPackages } from "@/db/schema";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { loadDemoWorld } from "../helpers/fixtures";
import { sentInkPackage } from "../helpers/ink-package";
import { BankStepPage } from "../e2e/pages/bank-step-page";
import { SignPanel } from "../e2e/pages/sign-panel";
import { SigningFormPage } from "../e2e/pages/signing-form-page";
import { routePlaidLink } from "../e2e/support/plaid-link";
import { expect, expectNoAxeViolations, signInAs, test as base } from "../e2e/support/fixtures";
import { BODY_LIMIT_BYTES, postChunked } from "./freezing-proxy";
import { startSimulatedHost, type SimulatedHost } from "./simulated-host";

/**
 * Issue 31's journey on the simulated serverless host (tests/simhost/simulated-host.ts): two frozen
 * and thawed instances of the standalone build, read-only, as nobody, without poppler or ImageMagick,
 * behind a proxy with Vercel's 4.5 MB body limit; PostgreSQL, Redis and s3rver behind them.
 *
 * A manager uploads a 20 MB package PDF in the package form (straight to the bucket by a presigned
 * PUT) and sends it; the borrower's invitation and emailed code reach the outbox within 5 s of the
 * request that sends them; the borrower signs and links a bank (fake Plaid Link); the sealed PDF is
 * ready within 10 s of the last signature; a hybrid package's table packet comes back as a PDF
 * scanback and its ink pages are matched. The 5 s and 10 s are the issue's targets for a serverless
 * host, measured from this test; the figures are printed and attached to the report.
 */

const test = base.extend<object, { host: SimulatedHost }>({
  host: [
    async ({}, provide, workerInfo) => {
      const host = await startSimulatedHost();
      try {
        await provide(host);
      } finally {
        writeFileSync(`${workerInfo.project.outputDir}/simhost-instances.log`, host.output());
        await host.stop();
      }
    },
    { scope: "worker", timeout: 240_000 },
  ],
  baseURL: async ({ host }, provide) => {
    await provide(host.url);
  },
  fakePlaid: async ({ host }, provide) => {
    await provide(host.plaid);
  },
});

/** The targets on a serverless host. */
const CODE_IN_OUTBOX_MS = 5_000;
const SEALED_AFTER_LAST_SIGNATURE_MS = 10_000;

const BORROWER = { name: "Bea Borrower", email: `bea.${randomBytes(3).toString("hex")}@example.com` };

let handle: DbHandle | undefined;
async function db(host: SimulatedHost) {
  handle ??= await openDb({ url: host.databaseUrl }, { max: 2 });
  return handle.db;
}
test.afterAll(async () => {
  await handle?.close();
  handle = undefined;
});

/** Polls the dev outbox (read only: nothing here runs a job) for the first mail to `to` whose id is not in `seen`. */
async function waitForMail(host: SimulatedHost, to: string, seen: Set<string>, startedAt: number, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const mails = await (await db(host)).select().from(outboxEmails).where(eq(outboxEmails.to, to)).orderBy(asc(outboxEmails.createdAt));
    const mail = mails.find((m) => !seen.has(m.id));
    if (mail) {
      seen.add(mail.id);
      return { mail, ms: Math.round(performance.now() - startedAt) };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no new mail to ${to} within ${timeoutMs} ms; instances: ${JSON.stringify(host.proxy.states())}`);
}

/** Polls the package's seal until it is sealed (or failed); the time from `startedAt`. */
async function waitForSeal(host: SimulatedHost, packageId: string, startedAt: number, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  let last: { status: string; lastError: string | null } | undefined;
  while (Date.now() < until) {
    [last] = await (await db(host)).select({ status: packageSeals.status, lastError: packageSeals.lastError }).from(packageSeals).where(eq(packageSeals.packageId, packageId));
    if (last?.status === "sealed" || last?.status === "failed") return { ...last, ms: Math.round(performance.now() - startedAt) };
    await new Promise((r) => setTimeout(r, 50));
  }
  return { status: last?.status ?? "none", lastError: last?.lastError ?? null, ms: Infinity };
}

/** A one-page package PDF of `bytes` (a random, incompressible stream inside it makes up the size). */
async function bigPdf(title: string, bytes: number): Promise<Buffer> {
  const { PDFDocument } = await import("pdf-lib");
  const doc = await PDFDocument.load(await renderAgreementPdf({ title, parties: [BORROWER.name], pages: 1 }));
  const base = (await doc.save({ useObjectStreams: false })).byteLength;
  doc.context.register(doc.context.stream(randomBytes(Math.max(0, bytes - base - 200))));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

const figures: Record<string, number> = {};
function figure(name: string, ms: number): void {
  figures[name] = ms;
  console.log(`simhost: ${name}: ${ms} ms`);
}

test.describe.configure({ mode: "serial" });

test("the host: instances as nobody from a read-only copy, only node on PATH, frozen when idle; bodies over 4.5 MB refused with 413", async ({ host }) => {
  expect(readdirSync(host.copy.bin)).toEqual(["node"]);
  for (const server of host.instances) {
    const pid = server.child.pid!;
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    expect(environ).toContain(`PATH=${host.copy.bin}`);
    expect(environ).toContain("SERVERLESS=1");
    if (host.copy.uid !== undefined) expect(readFileSync(`/proc/${pid}/status`, "utf8")).toMatch(new RegExp(`^Uid:\\s+${host.copy.uid}\\s`, "m"));
  }

  // Idle: both frozen (the kernel says "T (stopped)").
  await expect.poll(() => host.instances.map((s) => /^State:\s+(\S)/m.exec(readFileSync(`/proc/${s.child.pid}/status`, "utf8"))![1]), { timeout: 5_000 }).toEqual(["T", "T"]);
  // A request thaws the instance it goes to, which answers.
  const ready = await fetch(`${host.url}/ready`);
  expect(ready.status).toBe(200);

  const over = Buffer.alloc(Math.ceil(BODY_LIMIT_BYTES) + 1, 1);
  const declared = await fetch(`${host.url}/v1/uploads`, { method: "POST", body: over, headers: { "content-type": "application/octet-stream" } });
  expect(declared.status).toBe(413);
  // The same bytes streamed without a length (chunked): counted as they arrive.
  const streamed = await postChunked(`${host.url}/v1/uploads`, over);
  expect(streamed.status).toBe(413);
  expect(host.proxy.refused.map((r) => r.reason)).toEqual(["content-length", "streamed"]);
  // Just under the limit reaches the app (which wants a signed-in caller).
  const under = await fetch(`${host.url}/v1/uploads`, { method: "POST", body: Buffer.alloc(4_400_000, 1), headers: { "content-type": "application/json" } });
  expect(under.status).toBe(401);
});

test("a 20 MB package uploaded to the bucket and sent; code mailed within 5 s; signed, bank linked, sealed within 10 s; a PDF scanback matched", async ({ page, browser, host }, testInfo) => {
  const title = `Simulated host ${randomBytes(3).toString("hex")}`;

  // 1. The manager's package form: the 20 MB PDF goes in one PUT straight to the bucket (s3rver), not
  //    through the host, whose 4.5 MB limit it would not pass.
  await signInAs(page, "manager@demo.local");
  const form = await new SigningFormPage(page).gotoNew();
  await form.chooseLocation("Austin Branch");
  await form.title().fill(title);
  await form.fillSigner(1, BORROWER);
  await page.getByLabel("How signers prove who they are").selectOption({ label: "A code sent by email" });
  const pdf = await bigPdf(title, 20 * 1024 * 1024);
  expect(pdf.byteLength).toBeGreaterThan(20_000_000);
  const puts: { url: string; status: number }[] = [];
  page.on("response", (response) => {
    if (response.request().method() === "PUT") puts.push({ url: response.url(), status: response.status() });
  });
  const uploadStarted = performance.now();
  await form.pick({ name: "Note.pdf", mimeType: "application/pdf", buffer: pdf });
  await expect(form.pickedFile("Note.pdf")).toContainText("Ready: 1 page", { timeout: 120_000 });
  figure("20 MB upload, picked to ready", Math.round(performance.now() - uploadStarted));
  expect(puts).toHaveLength(1);
  expect(puts[0]!.url.startsWith(`${host.s3.env.S3_ENDPOINT}/documents/uploads/`)).toBe(true);
  expect(puts[0]!.status).toBe(200);
  expect(host.proxy.refused).toHaveLength(2); // only the previous test's
  await form.saveDraft();
  await expect(page).toHaveURL(/\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
  const packageId = /\/signings\/([0-9a-f-]{36})\/edit/.exec(page.url())![1]!;
  await form.openSendCheck();
  const seen = new Set<string>();
  const sending = performance.now();
  await form.sendNow();

  // 2. The invitation, mailed by the request that sent the package (its after() work).
  const invitation = await waitForMail(host, BORROWER.email, seen, sending);
  figure("invitation in the outbox after Send now", invitation.ms);
  await expect(page).toHaveURL(new RegExp(`/signings/${packageId}$`));
  const link = /https?:\/\/\S+\/access\/[A-Za-z0-9_-]{43}/.exec(invitation.mail.text)?.[0];
  expect(link, invitation.mail.text).toBeTruthy();
  // The manager's package page refreshes itself every few seconds (live-updates.tsx): closed, so that
  // only the borrower's requests wake the instances from here.
  await page.goto("about:blank");

  // 3. The borrower opens the link and is mailed a code.
  const borrowerContext = await browser.newContext({ baseURL: host.url, viewport: { width: 390, height: 844 } });
  try {
    const borrower = await borrowerContext.newPage();
    await routePlaidLink(borrower, host.plaid);
    await borrower.goto(new URL(link!).pathname);
    await expect(borrower.getByRole("heading", { level: 1, name: title })).toBeVisible();
    const opening = performance.now();
    await borrower.getByRole("button", { name: "Open the documents" }).click();
    const codeMail = await waitForMail(host, BORROWER.email, seen, opening);
    figure("code in the outbox after Open the documents", codeMail.ms);
    // After "is": the title before it may hold six digits of its own (its random hex suffix).
    const code = / is (\d{6})\b/.exec(codeMail.mail.text)?.[1];
    expect(code, codeMail.mail.text).toBeTruthy();
    await borrower.waitForURL(/\/access\/verify\//);
    await borrower.getByLabel("Code from the email").fill(code!);
    await borrower.getByRole("button", { name: "Continue" }).click();

    // 4. The bank first, through the fake Plaid Link (the flow allows it before signing), so that the
    //    last signature is the borrower's last action: after it nothing but the seal's own work (the
    //    signature request's after()) can keep an instance awake.
    await borrower.waitForURL(/\/signings\/[0-9a-f-]{36}$/);
    const bank = await new BankStepPage(borrower).goto(packageId);
    await bank.linkButton.click();
    await expect(bank.connectedHeading).toBeVisible();
    await expect(bank.institution).toHaveText("First Platypus Bank");
    await bank.continueLink("Continue to your documents").click();

    // 5. Consent, a typed signature, the one document signed: the last signature completes the package.
    await borrower.waitForURL(/\/signings\/[0-9a-f-]{36}$/);
    const panel = new SignPanel(borrower);
    await panel.consent();
    await panel.openDialog();
    await panel.dialog.getByRole("radio", { name: /Great Vibes/ }).check();
    await panel.dialog.getByRole("button", { name: "Adopt signature" }).click();
    await expect(panel.dialog).toBeHidden();
    const signAnswered = borrower.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === `/signings/${packageId}`);
    const signing = performance.now();
    const signedAtEvent = host.proxy.events.length;
    await panel.signButton("Note.pdf").click();
    const sealed = waitForSeal(host, packageId, signing);
    expect((await signAnswered).status()).toBe(200);
    // The borrower closes the tab as soon as the answer comes (the action has run and committed by
    // then): from here no request of theirs keeps an instance awake, only the work the signature's
    // request handed to the platform (after(), waitUntil).
    await borrower.close();
    const [completed] = await (await db(host)).select({ status: signingPackages.status }).from(signingPackages).where(eq(signingPackages.id, packageId));
    expect(completed?.status).toBe("completed");

    // 6. The seal, made by the last signature's request (its after() work), downloadable from the bucket.
    const seal = await sealed;
    figure("sealed after the last signature", seal.ms);
    await testInfo.attach("proxy events from the last signature", { body: JSON.stringify(host.proxy.events.slice(signedAtEvent), null, 1), contentType: "application/json" });
    writeFileSync(testInfo.outputPath("events-after-signature.json"), JSON.stringify(host.proxy.events.slice(signedAtEvent), null, 1));
    expect(seal).toMatchObject({ status: "sealed", lastError: null });
    // The completion mail, enqueued by the same request, went out too (no request has come since).
    const completedMail = await waitForMail(host, BORROWER.email, seen, signing, 30_000);
    figure("completion mail in the outbox after the last signature", completedMail.ms);
    console.log(`simhost: completion mail subject: ${completedMail.mail.subject}`);
    const again = await borrowerContext.newPage();
    await again.goto(`/signings/${packageId}/done`);
    await expect(again.getByRole("heading", { level: 1, name: "You’ve signed" })).toBeVisible();
    const region = again.getByRole("region", { name: "Sealed documents" });
    const downloading = again.waitForEvent("download");
    await region.getByRole("link", { name: "Download sealed PDF of Note.pdf" }).click();
    const sealedPath = testInfo.outputPath("sealed.pdf");
    await (await downloading).saveAs(sealedPath);
    const sealedPdf = readFileSync(sealedPath);
    expect(sealedPdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(sealedPdf.byteLength).toBeGreaterThan(pdf.byteLength);
    await expectNoAxeViolations(again);

    // The targets, checked last so that a slow step still shows every figure.
    expect(invitation.ms, "invitation in the outbox").toBeLessThanOrEqual(CODE_IN_OUTBOX_MS);
    expect(codeMail.ms, "code in the outbox").toBeLessThanOrEqual(CODE_IN_OUTBOX_MS);
    expect(seal.ms, "sealed after the last signature").toBeLessThanOrEqual(SEALED_AFTER_LAST_SIGNATURE_MS);
  } finally {
    await borrowerContext.close();
  }

  // 7. A hybrid package (a 2-page note signed in ink): its table packet, printed by the host and
  //    uploaded back as one PDF, is rasterized by pdf.js inside the instance and both pages matched.
  const world = await loadDemoWorld(await db(host));
  const ink = await sentInkPackage(await db(host), world, {
    label: "Simhost",
    documents: [{ name: "Disclosure.pdf" }, { name: "Note.pdf", pages: 2, executionMode: "wet_sign" }],
  });
  await page.goto(`/signings/${ink.id}/closing`);
  const packetDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the table packet (PDF)" }).click();
  const packetPath = testInfo.outputPath("packet.pdf");
  await (await packetDownload).saveAs(packetPath);
  const scanning = performance.now();
  await page.getByLabel("Scanned files").setInputFiles(packetPath);
  await page.getByRole("button", { name: "Upload and check" }).click();
  const uploadForm = page.locator("form").filter({ has: page.getByLabel("Scanned files") });
  await expect(uploadForm.getByText(/^Read \d+ pages?: /)).toBeVisible({ timeout: 120_000 });
  figure("PDF scanback read and matched", Math.round(performance.now() - scanning));
  await expect(uploadForm.getByText(/^Read \d+ pages?: /)).toContainText("2 matched");
  await expect(page.getByTestId("scanback-documents")).toHaveText("Note.pdf: 2 of 2 pages · ready to attach");

  const states = host.proxy.states();
  console.log(`simhost: instances ${JSON.stringify(states)}`);
  // Both instances served the journey and were frozen and thawed along the way.
  for (const state of states) {
    expect(state.requests).toBeGreaterThan(0);
    expect(state.freezes).toBeGreaterThan(0);
    expect(state.thaws).toBeGreaterThan(0);
  }
  writeFileSync(testInfo.outputPath("figures.json"), JSON.stringify({ figures, instances: states }, null, 2));
  await testInfo.attach("figures", { body: JSON.stringify({ figures, instances: states }, null, 2), contentType: "application/json" });
  expect(host.output()).not.toMatch(/EROFS|EACCES|Cannot find module|pdftoppm/);
});
