import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, jobs, packageSigners, signerAccessLinks, signerSessions, signingPackages, webhookEvents, type SignerProofMethod } from "@/db/schema";
import { hashPassword } from "@/lib/auth/passwords";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { setEnvForTests } from "@/lib/env";
import { log } from "@/lib/log";
import { buildSecurityHeaders } from "@/lib/security/security-headers";
import { requestPrincipal } from "@/lib/next/request-principal";
import { getSignerSession } from "@/lib/signer-access/get-signer-session";
import { signerSessionCookieName } from "@/lib/signer-access/rules";
import { openAccessLink, viewAccessLink } from "@/lib/signer-access/open-access-link";
import { requestNewAccessLink } from "@/lib/signer-access/request-new-access-link";
import { signerSessionPrincipal } from "@/lib/signer-access/signer-session-principal";
import { passSignerProofWithAccount, verifySignerProof } from "@/lib/signer-access/verify-signer-proof";
import { cancelSigning } from "@/lib/signings/cancel-signing";
import { createSigning } from "@/lib/signings/create-signing";
import { getSignerPackagePage } from "@/lib/views/get-signer-package-page";
import { recordSigningConsent } from "@/lib/signings/record-signing-consent";
import { remindSigners } from "@/lib/signings/remind-signers";
import { sendSigning } from "@/lib/signings/send-signing";
import { callApi } from "../helpers/api";
import { deliveredMailsTo, lastDeliveredMailTo } from "../helpers/mail";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { pngDataUrl } from "../helpers/signing-fixtures";

let testDb: TestDb;
let world: DemoWorld;
let manager: Principal;
const evidence = { ipAddress: "203.0.113.61", userAgent: "Mozilla/5.0 (Access test)" };
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
});

afterAll(async () => {
  await testDb.cleanup();
});

/** A sent package for signers who have no account, each with an optional proof method. */
async function sendPackage(signers: { email: string; method?: SignerProofMethod; accessCode?: string; phone?: string }[], packageMethod: SignerProofMethod = "email_code") {
  counter += 1;
  const bytes = await renderAgreementPdf({ title: `Access ${counter}`, parties: ["Borrower"], pages: 1 });
  const created = await createSigning(testDb.db, {
    principal: manager,
    locationId: world.austin.id,
    title: `Access test ${counter}`,
    signers: signers.map((s, i) => ({ name: `Borrower ${i + 1}`, email: s.email, role: "signer" as const, routingOrder: 1 })),
    documents: [{ name: "Note.pdf", bytes }],
  });
  await testDb.db.update(signingPackages).set({ signerAuthMethod: packageMethod }).where(eq(signingPackages.id, created.id));
  for (const s of signers) {
    await testDb.db
      .update(packageSigners)
      .set({ authMethod: s.method ?? null, accessCodeHash: s.accessCode ? await hashPassword(s.accessCode) : null, phone: s.phone ?? null })
      .where(and(eq(packageSigners.packageId, created.id), eq(packageSigners.email, s.email)));
  }
  await sendSigning(testDb.db, { principal: manager, packageId: created.id });
  return created.id;
}

/** The newest email delivered to `to` (the queued email jobs run first, as the worker runs them). */
async function lastMailTo(to: string): Promise<{ text: string; subject: string }> {
  return lastDeliveredMailTo(testDb.db, to);
}

async function tokenFromMail(to: string): Promise<string> {
  const match = /\/access\/([A-Za-z0-9_-]{43})/.exec((await lastMailTo(to)).text);
  if (!match) throw new Error(`no access link in the last mail to ${to}`);
  return match[1]!;
}

async function codeFromMail(to: string): Promise<string> {
  const match = /is (\d{6})\./.exec((await lastMailTo(to)).text);
  if (!match) throw new Error(`no code in the last mail to ${to}`);
  return match[1]!;
}

async function session(packageId: string, value: string) {
  const context = await getSignerSession(testDb.db, { packageId, value });
  if (!context) throw new Error("no live session");
  return context;
}

describe("access links", () => {
  it("the invitation carries a 256-bit link; only its SHA-256 is stored; a GET shows the package and burns nothing", async () => {
    const id = await sendPackage([{ email: "pat.link@example.test", method: "link" }]);
    const token = await tokenFromMail("pat.link@example.test");
    const stored = await testDb.db.select().from(signerAccessLinks).where(eq(signerAccessLinks.packageId, id));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);
    // A mail scanner fetching the page twice changes nothing.
    for (let i = 0; i < 2; i++) {
      expect(await viewAccessLink(testDb.db, { token })).toMatchObject({ state: "open", title: expect.stringContaining("Access test"), senderName: "Demo Lending Co." });
    }
    const [after] = await testDb.db.select().from(signerAccessLinks).where(eq(signerAccessLinks.packageId, id));
    expect(after!.usedAt).toBeNull();
    const opened = await openAccessLink(testDb.db, { token, ...evidence });
    expect(opened?.packageId).toBe(id);
    // `link`: the link alone proves it.
    expect((await session(id, opened!.sessionValue)).session.authMethod).toBe("link");
  });

  it("a used, superseded, revoked (cancelled) or expired link does not open", async () => {
    const id = await sendPackage([{ email: "used@example.test" }, { email: "super@example.test" }, { email: "late@example.test" }]);
    const used = await tokenFromMail("used@example.test");
    expect(await openAccessLink(testDb.db, { token: used, ...evidence })).not.toBeNull();
    expect(await openAccessLink(testDb.db, { token: used, ...evidence })).toBeNull();
    expect(await viewAccessLink(testDb.db, { token: used })).toEqual({ state: "unusable" });

    const first = await tokenFromMail("super@example.test");
    await remindSigners(testDb.db, { principal: manager, packageId: id });
    const second = await tokenFromMail("super@example.test");
    expect(second).not.toBe(first);
    expect(await openAccessLink(testDb.db, { token: first, ...evidence })).toBeNull();
    // The same hour's second reminder is not sent, so it supersedes nothing.
    await remindSigners(testDb.db, { principal: manager, packageId: id });
    expect(await tokenFromMail("super@example.test")).toBe(second);

    await testDb.db.update(signingPackages).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(signingPackages.id, id));
    expect(await openAccessLink(testDb.db, { token: second, ...evidence })).toBeNull();
    await testDb.db.update(signingPackages).set({ expiresAt: null }).where(eq(signingPackages.id, id));
    expect(await viewAccessLink(testDb.db, { token: second })).toMatchObject({ state: "open" });

    const late = await tokenFromMail("late@example.test");
    const openedBefore = await openAccessLink(testDb.db, { token: second, ...evidence });
    await cancelSigning(testDb.db, { principal: manager, packageId: id, reason: "Wrong borrower" });
    expect(await openAccessLink(testDb.db, { token: late, ...evidence })).toBeNull();
    // The session opened before the cancellation ends with it.
    expect(await getSignerSession(testDb.db, { packageId: id, value: openedBefore!.sessionValue })).toBeNull();
  });

  it("a session ends after 30 idle minutes and after 12 hours", async () => {
    const id = await sendPackage([{ email: "idle@example.test", method: "link" }]);
    const opened = await openAccessLink(testDb.db, { token: await tokenFromMail("idle@example.test"), ...evidence });
    const now = Date.now();
    expect(await getSignerSession(testDb.db, { packageId: id, value: opened!.sessionValue, now: new Date(now + 29 * 60_000) })).not.toBeNull();
    expect(await getSignerSession(testDb.db, { packageId: id, value: opened!.sessionValue, now: new Date(now + 29 * 60_000 + 31 * 60_000) })).toBeNull();
    await testDb.db.update(signerSessions).set({ lastSeenAt: new Date(now + 12 * 3600_000) }).where(eq(signerSessions.packageId, id));
    expect(await getSignerSession(testDb.db, { packageId: id, value: opened!.sessionValue, now: new Date(now + 12 * 3600_000 + 1000) })).toBeNull();
  });
});

describe("proof of identity", () => {
  it("email_code: a code is mailed when the link is opened; the right code passes and is audited without the code", async () => {
    const id = await sendPackage([{ email: "code@example.test" }]);
    const opened = await openAccessLink(testDb.db, { token: await tokenFromMail("code@example.test"), ...evidence });
    const context = await session(id, opened!.sessionValue);
    expect(context.session.authPassedAt).toBeNull();
    const code = await codeFromMail("code@example.test");
    await verifySignerProof(testDb.db, { context, code, ...evidence });
    expect((await session(id, opened!.sessionValue)).session.authMethod).toBe("email_code");
    const entries = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, id), like(auditLog.action, "signer.%")));
    const actions = entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["signer.link_opened", "signer.auth_requested", "signer.auth_passed"]));
    expect(entries.find((e) => e.action === "signer.auth_passed")).toMatchObject({ ipAddress: evidence.ipAddress, after: { method: "email_code", userAgent: evidence.userAgent } });
    expect(JSON.stringify(entries)).not.toContain(code);
    // A used code does not pass again.
    await expect(verifySignerProof(testDb.db, { context, code, ...evidence })).rejects.toMatchObject({ status: 400 });
  });

  it("five wrong codes lock the proof for 15 minutes: the sixth attempt is refused even with the right code", async () => {
    const id = await sendPackage([{ email: "guess@example.test" }]);
    const opened = await openAccessLink(testDb.db, { token: await tokenFromMail("guess@example.test"), ...evidence });
    const context = await session(id, opened!.sessionValue);
    const code = await codeFromMail("guess@example.test");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 1; i <= 4; i++) await expect(verifySignerProof(testDb.db, { context, code: wrong, ...evidence })).rejects.toMatchObject({ status: 400 });
    await expect(verifySignerProof(testDb.db, { context, code: wrong, ...evidence })).rejects.toMatchObject({ status: 429 });
    await expect(verifySignerProof(testDb.db, { context, code, ...evidence })).rejects.toMatchObject({ status: 429 });
    expect((await session(id, opened!.sessionValue)).session.authPassedAt).toBeNull();
    const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));
    expect(signer!.authFailures).toBe(5);
    const failed = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, id), eq(auditLog.action, "signer.auth_failed")));
    expect(failed).toHaveLength(5);
    expect(JSON.stringify(failed)).not.toContain(wrong);
    // The lock is one webhook event, carrying ids only.
    const lockedOut = await testDb.db.select().from(webhookEvents).where(eq(webhookEvents.type, "signer.locked_out"));
    expect(lockedOut.map((e) => e.data)).toEqual([{ packageId: id, organizationId: expect.any(Number), signerId: signer!.id }]);
  });

  it("access_code: the sender's code passes, a wrong one fails; the hash is never the code", async () => {
    const id = await sendPackage([{ email: "ac@example.test", method: "access_code", accessCode: "78701" }]);
    const opened = await openAccessLink(testDb.db, { token: await tokenFromMail("ac@example.test"), ...evidence });
    const context = await session(id, opened!.sessionValue);
    expect(context.signer.accessCodeHash).not.toContain("78701");
    await expect(verifySignerProof(testDb.db, { context, code: "78702", ...evidence })).rejects.toMatchObject({ status: 400 });
    await verifySignerProof(testDb.db, { context, code: " 78701 ", ...evidence });
    expect((await session(id, opened!.sessionValue)).session.authMethod).toBe("access_code");
  });

  it("sms_code without SMS configured is a clear 503", async () => {
    // Sending needs the signer's mobile number (signerProofGaps).
    const id = await sendPackage([{ email: "sms@example.test", method: "sms_code", phone: "+15125550177" }]);
    const opened = await openAccessLink(testDb.db, { token: await tokenFromMail("sms@example.test"), ...evidence });
    const context = await session(id, opened!.sessionValue);
    const { sendSignerCode } = await import("@/lib/signer-access/send-signer-code");
    await expect(testDb.db.transaction((tx) => sendSignerCode(tx, { ...context, method: "sms_code" }))).rejects.toMatchObject({
      status: 503,
      message: expect.stringContaining("Text messages are not set up"),
    });
  });

  it("a signed-in account with the signer's email passes email_code, not access_code; another email does not", async () => {
    const id = await sendPackage([{ email: "has.account@example.test" }, { email: "ac2@example.test", method: "access_code", accessCode: "1234" }]);
    const account = await createUser(testDb.db, "has.account@example.test");
    const other = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
    const mine = await resolvePrincipal(testDb.db, account.authSubject!);
    const a = await session(id, (await openAccessLink(testDb.db, { token: await tokenFromMail("has.account@example.test"), ...evidence }))!.sessionValue);
    await expect(passSignerProofWithAccount(testDb.db, { context: a, principal: other })).rejects.toMatchObject({ status: 403 });
    await passSignerProofWithAccount(testDb.db, { context: a, principal: mine });
    const b = await session(id, (await openAccessLink(testDb.db, { token: await tokenFromMail("ac2@example.test"), ...evidence }))!.sessionValue);
    await expect(passSignerProofWithAccount(testDb.db, { context: b, principal: mine })).rejects.toMatchObject({ status: 403 });
  });
});

describe("a link session is narrow", () => {
  it("a link session is no account: /v1, the pages that need one (console, API keys, My signatures) and other packages do not take it", async () => {
    const email = "narrow.session@example.test";
    const mine = await sendPackage([{ email, method: "link" }]);
    const other = await sendPackage([{ email: "someone.else@example.test", method: "link" }]);
    const opened = await openAccessLink(testDb.db, { token: await tokenFromMail(email), ...evidence });
    expect(opened!.packageId).toBe(mine);
    const cookie = `${signerSessionCookieName(mine, false)}=${opened!.sessionValue}`;
    const request = (path: string) => new Request(`http://localhost:3000${path}`, { headers: { cookie } });

    // Its own package: a signer principal with no roles.
    const own = await requestPrincipal(testDb.db, { link: { kind: "signer", packageId: mine }, request: request(`/signings/${mine}`), accountFromRequest: true });
    expect(own?.roles).toEqual([]);
    // Pages resolved without a package (the console, API keys, /me/esignatures): no principal, so sign-in.
    expect(await requestPrincipal(testDb.db, { request: request("/me/esignatures"), accountFromRequest: true })).toBeNull();
    expect(await requestPrincipal(testDb.db, { request: request("/account/api-keys"), accountFromRequest: true })).toBeNull();
    // Another package: the cookie is not its session.
    expect(await requestPrincipal(testDb.db, { link: { kind: "signer", packageId: other }, request: request(`/signings/${other}`), accountFromRequest: true })).toBeNull();
    // /v1 takes bearer tokens only: the cookie alone is a 401, for the signer's and the manager's API.
    for (const path of ["/v1/signing/signer/signings", `/v1/signing/signer/signings/${mine}`, "/v1/signing/manager/signings", "/v1/me"]) {
      expect((await callApi(path, { headers: { cookie } })).status, path).toBe(401);
    }
  });

  it("reads and signs its own package as its signer, never another package of the same person", async () => {
    const email = "two.packages@example.test";
    const mine = await sendPackage([{ email, method: "link" }, { email: "cosigner.narrow@example.test", method: "link" }]);
    const otherPackage = await sendPackage([{ email, method: "link" }]);
    const opened = await openAccessLink(testDb.db, { token: await tokenFromMail(email), ...evidence });
    // The newest mail to that address is the second package's: open the first package's link instead.
    expect(opened!.packageId).toBe(otherPackage);
    const context = await session(otherPackage, opened!.sessionValue);
    const principal = signerSessionPrincipal(context);
    expect(principal.roles).toEqual([]);
    expect(principal.capabilities).not.toContain("signings:read");
    await expect(getSignerPackagePage(testDb.db, { principal, packageId: mine })).rejects.toMatchObject({ status: 404 });
    // Its cookie value is no session for the other package either.
    expect(await getSignerSession(testDb.db, { packageId: mine, value: opened!.sessionValue })).toBeNull();
    const page = await getSignerPackagePage(testDb.db, { principal, packageId: otherPackage });
    expect(page.view.title).toContain("Access test");

    // Consent and signature without an account: one consent record on the signer row; the evidence names the method.
    await recordSigningConsent(testDb.db, { principal, packageId: otherPackage, disclosureVersion: "2025-01", ...evidence });
    const [doc] = page.view.documents;
    const signed = await recordESignature(testDb.db, {
      principal,
      packageId: otherPackage,
      documentId: doc!.id,
      consent: true,
      signature: { kind: "drawn", imageDataUrl: pngDataUrl() },
      ...evidence,
    });
    expect(signed.created).toBe(true);
    expect(signed.eSignature.authUserId).toBeNull();
    const [row] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.id, context.signer.id));
    expect(row).toMatchObject({ consentSource: "browser", authPassedMethod: "link" });
    expect(row!.consentedAt).toBeInstanceOf(Date);
    const [recorded] = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, otherPackage), eq(auditLog.action, "esignature.recorded")));
    expect(recorded!.after).toMatchObject({ authMethod: "link" });
    expect(recorded!.actorUserId).toBeNull();
  });
});

describe("Email me a new link", () => {
  it("mails the address on file only for a link we issued, and says nothing either way", async () => {
    const id = await sendPackage([{ email: "renew@example.test", method: "link" }]);
    const old = await tokenFromMail("renew@example.test");
    await openAccessLink(testDb.db, { token: old, ...evidence });
    const countMails = async () => (await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"))).length;
    const before = await countMails();
    const answerForUnknown = await requestNewAccessLink(testDb.db, { token: "A".repeat(43), clientIp: "198.51.100.1" });
    const answerForGarbage = await requestNewAccessLink(testDb.db, { token: "not-a-token", clientIp: "198.51.100.1" });
    expect(await countMails()).toBe(before);
    const answerForReal = await requestNewAccessLink(testDb.db, { token: old, clientIp: "198.51.100.1" });
    expect([answerForUnknown, answerForGarbage, answerForReal]).toEqual([undefined, undefined, undefined]);
    expect(await countMails()).toBe(before + 1);
    const mail = await lastMailTo("renew@example.test");
    expect(mail.subject).toContain("Your new link");
    const fresh = await tokenFromMail("renew@example.test");
    expect(fresh).not.toBe(old);
    expect((await openAccessLink(testDb.db, { token: fresh, ...evidence }))?.packageId).toBe(id);
    // Throttled: asking again within a minute sends nothing.
    await requestNewAccessLink(testDb.db, { token: old, clientIp: "198.51.100.1" });
    expect(await countMails()).toBe(before + 1);
  });
});

describe("the token stays out of logs and Referers", () => {
  it("a log line with an access link has the token redacted", () => {
    setEnvForTests({ LOG_LEVEL: "debug" });
    const token = "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5";
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    const errors = vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    try {
      log.info(`GET /access/${token.slice(0, 43)}`, { url: `https://sign.example.com/access/${token.slice(0, 43)}` });
      log.error("failed", { path: `/access/${token.slice(0, 43)}` });
    } finally {
      spy.mockRestore();
      errors.mockRestore();
    }
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(token.slice(0, 43));
  });

  it("the access pages send no Referer, even to our own origin", () => {
    const headers = buildSecurityHeaders({ nonce: "n", pathname: "/access/abc", production: true, appUrl: "https://sign.example.com", plaidEnvironment: "sandbox" });
    expect(headers["Referrer-Policy"]).toBe("no-referrer");
  });
});

describe("the manager never sees a code", () => {
  it("an access code set on create is stored hashed and returned only as hasAccessCode; resend supersedes the link", async () => {
    const id = await sendPackage([{ email: "secret.code@example.test", method: "access_code", accessCode: "55123" }]);
    const { listSigners } = await import("@/lib/signings/list-signers");
    const { serializeSigner } = await import("@/lib/signings/serialize-signer");
    const listed = { data: (await listSigners(testDb.db, { principal: manager, packageId: id })).map(serializeSigner) };
    expect(JSON.stringify(listed)).not.toContain("55123");
    expect(listed.data[0]).toMatchObject({ authMethod: "access_code", hasAccessCode: true });
    expect(JSON.stringify(listed)).not.toContain("accessCodeHash");
    const first = await tokenFromMail("secret.code@example.test");
    const { resendInvitation } = await import("@/lib/signer-access/resend-invitation");
    await expect(resendInvitation(testDb.db, { principal: manager, packageId: id, signerId: listed.data[0]!.id })).rejects.toMatchObject({ status: 429 });
    await resendInvitation(testDb.db, { principal: manager, packageId: id, signerId: listed.data[0]!.id, now: new Date(Date.now() + 61_000) });
    expect(await openAccessLink(testDb.db, { token: first, ...evidence })).toBeNull();
    expect(await openAccessLink(testDb.db, { token: await tokenFromMail("secret.code@example.test"), ...evidence })).not.toBeNull();
  });
});

describe("no link or code at rest in the jobs table", () => {
  const payloads = async () => JSON.stringify((await testDb.db.select({ payload: jobs.payload }).from(jobs)).map((r) => r.payload));
  /** `code` as a value of its own, not six digits inside an id. */
  const holdsCode = (text: string, code: string) => new RegExp(`(?<![0-9a-f-])${code}(?![0-9a-f])`).test(text);

  it("the invitation and the emailed code are rendered at send time: no jobs row holds them, and the delivered ones work", async () => {
    const id = await sendPackage([{ email: "at.rest@example.test" }]);
    const [link] = await testDb.db.select().from(signerAccessLinks).where(eq(signerAccessLinks.packageId, id));
    const queued = await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"));
    expect(queued.map((j) => j.payload)).toContainEqual({ message: "signer-invitation", linkId: link!.id });
    const token = await tokenFromMail("at.rest@example.test");
    expect(await payloads()).not.toContain(token);
    expect(await payloads()).not.toContain("/access/");
    expect(await payloads()).not.toContain("at.rest@example.test");
    const opened = await openAccessLink(testDb.db, { token, ...evidence });
    expect(opened?.packageId).toBe(id);
    const code = await codeFromMail("at.rest@example.test");
    const codeJob = (await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"))).find(
      (j) => (j.payload as { message?: string }).message === "signer-code",
    );
    expect(Object.keys(codeJob!.payload as object).sort()).toEqual(["challengeId", "message"]);
    expect(holdsCode(await payloads(), code)).toBe(false);
    await verifySignerProof(testDb.db, { context: await session(id, opened!.sessionValue), code, ...evidence });
    expect((await session(id, opened!.sessionValue)).session.authMethod).toBe("email_code");
  });

  it("a retried email job sends the same link and the same code again: one valid of each", async () => {
    const id = await sendPackage([{ email: "retried@example.test" }]);
    const token = await tokenFromMail("retried@example.test");
    const opened = await openAccessLink(testDb.db, { token, ...evidence });
    const code = await codeFromMail("retried@example.test");
    // The worker died after the mail left and before the job was marked: the job runs again.
    await testDb.db.update(jobs).set({ status: "queued", runAt: new Date(Date.now() - 1000) }).where(eq(jobs.name, "send-email"));
    const mails = await deliveredMailsTo(testDb.db, "retried@example.test");
    const codes = mails.map((m) => /is (\d{6})\./.exec(m.text)?.[1]).filter(Boolean);
    const tokens = mails.map((m) => /\/access\/([A-Za-z0-9_-]{43})/.exec(m.text)?.[1]).filter(Boolean);
    expect(new Set(codes)).toEqual(new Set([code]));
    expect(new Set(tokens)).toEqual(new Set([token]));
    const links = await testDb.db.select().from(signerAccessLinks).where(eq(signerAccessLinks.packageId, id));
    expect(links).toHaveLength(1);
    await verifySignerProof(testDb.db, { context: await session(id, opened!.sessionValue), code, ...evidence });
  });
});
