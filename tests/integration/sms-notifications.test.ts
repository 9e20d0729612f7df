import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST as smsWebhookRoute } from "@/app/api/webhooks/sms/route";
import { auditLog, inboundEvents, jobs, organizations, packageSigners, smsMessages, smsOptOuts, webhookEvents } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { setEnvForTests } from "@/lib/env";
import { resendInvitation } from "@/lib/signer-access/resend-invitation";
import { createSigning } from "@/lib/signings/create-signing";
import { remindSigners } from "@/lib/signings/remind-signers";
import { sendSigning } from "@/lib/signings/send-signing";
import { getSignerSession } from "@/lib/signer-access/get-signer-session";
import { openAccessLink } from "@/lib/signer-access/open-access-link";
import { signerSessionPrincipal } from "@/lib/signer-access/signer-session-principal";
import { listSignerTexts } from "@/lib/sms/list-signer-texts";
import { getMyTexts, stopMyTexts } from "@/lib/sms/my-texts";
import { startFakeTwilio, type FakeTwilio } from "../fakes/twilio/start-fake-twilio";
import { lastDeliveredMailTo } from "../helpers/mail";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { drainJobs } from "../helpers/payments";

// Invitations, "your turn" and reminders by text through the real twilio SDK against the fake
// Twilio; delivery statuses and STOP/START replies through the signed webhook.

let testDb: TestDb;
let world: DemoWorld;
let manager: Principal;
let twilio: FakeTwilio;
const FROM = "+15125550100";
const APP_URL = "https://sign.example.test";
const WEBHOOK_URL = `${APP_URL}/api/webhooks/sms`;
const LENDER = "Acme Lending";
let counter = 0;

function twilioOn() {
  // An https APP_URL: texts carry it as their status callback (Twilio cannot call a local http address).
  setEnvForTests({ APP_URL, TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken, TWILIO_FROM: FROM, TWILIO_API_BASE_URL: twilio.url });
}
function twilioOff() {
  setEnvForTests({ APP_URL, TWILIO_ACCOUNT_SID: undefined, TWILIO_AUTH_TOKEN: undefined, TWILIO_FROM: undefined, TWILIO_API_BASE_URL: undefined });
}

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
  twilio = await startFakeTwilio();
  const [org] = await testDb.db.select().from(organizations).where(eq(organizations.id, world.austin.organizationId));
  await testDb.db
    .update(organizations)
    .set({ settings: { ...org!.settings, displayName: LENDER } })
    .where(eq(organizations.id, org!.id));
});

beforeEach(() => twilioOn());

afterAll(async () => {
  twilioOff();
  await twilio.close();
  await testDb.cleanup();
});

type SignerInput = { name: string; email: string; routingOrder: number; phone?: string; smsConsent?: boolean };

/** A sent package of the demo organization with these signers; its document's name and text must never reach a text. */
async function sendPackage(signers: SignerInput[]) {
  counter += 1;
  const bytes = await renderAgreementPdf({ title: `Confidential loan terms ${counter}`, parties: ["Borrower"], pages: 1 });
  const created = await createSigning(testDb.db, {
    principal: manager,
    locationId: world.austin.id,
    title: `Secret refinance ${counter}`,
    signers: signers.map((s) => ({ ...s, role: "signer" as const })),
    documents: [{ name: "Promissory note.pdf", bytes }],
  });
  await sendSigning(testDb.db, { principal: manager, packageId: created.id });
  return created.id;
}

/** The access link in the newest email delivered to `email`. */
async function mailedLink(email: string): Promise<string> {
  const mail = await lastDeliveredMailTo(testDb.db, email);
  const link = /https?:\/\/\S+\/access\/[A-Za-z0-9_-]{43}/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no access link mailed to ${email}`);
  return link;
}

const textsTo = (phone: string) => twilio.messages.filter((m) => m.to === phone);

async function webhook(params: Record<string, string>, options: { authToken?: string } = {}) {
  return smsWebhookRoute(twilio.webhook(WEBHOOK_URL, { AccountSid: twilio.accountSid, ApiVersion: "2010-04-01", ...params }, options));
}

const reply = (from: string, body: string, sid: string) => webhook({ MessageSid: sid, SmsSid: sid, SmsStatus: "received", From: from, To: FROM, Body: body, NumMedia: "0" });
const inboundSid = () => `SM${crypto.randomUUID().replace(/-/g, "")}`;

describe("texts beside the signer emails", () => {
  it("texts the invitation, branded and with the emailed access link, only to signers with a number and a recorded consent", async () => {
    const consenting = "+15125550201";
    const noConsent = "+15125550202";
    const id = await sendPackage([
      { name: "Texted Borrower", email: "texted@example.test", routingOrder: 1, phone: consenting, smsConsent: true },
      { name: "Emailed Borrower", email: "emailed@example.test", routingOrder: 1, phone: noConsent },
      { name: "Later Cosigner", email: "later@example.test", routingOrder: 2, phone: "+15125550203", smsConsent: true },
    ]);
    const [signer] = await testDb.db.select().from(packageSigners).where(and(eq(packageSigners.packageId, id), eq(packageSigners.email, "texted@example.test")));
    expect(signer!.smsConsentAt).not.toBeNull();
    expect(signer!.smsConsentByUserId).toBe(manager.user.id);

    // Queued in the outbox with the change; nothing leaves before the job runs.
    expect(textsTo(consenting)).toHaveLength(0);
    const [queued] = await testDb.db.select().from(smsMessages).where(eq(smsMessages.signerId, signer!.id));
    expect(queued).toMatchObject({ status: "queued", kind: "invitation", to: consenting });
    // The text's job holds ids only: the link is written into the text when it is sent.
    const [smsJob] = await testDb.db.select().from(jobs).where(and(eq(jobs.name, "send-signer-sms"), eq(jobs.idempotencyKey, `sms:signing-invite:${id}:${signer!.id}`)));
    expect(Object.keys(smsJob!.payload as object).sort()).toEqual(["linkId", "smsMessageId"]);
    await drainJobs(testDb.db);

    const texts = textsTo(consenting);
    expect(texts).toHaveLength(1);
    const text = texts[0]!;
    expect(text.from).toBe(FROM);
    expect(text.body.startsWith(`${LENDER}: `)).toBe(true);
    expect(text.body).toContain(await mailedLink("texted@example.test"));
    expect(JSON.stringify((await testDb.db.select({ payload: jobs.payload }).from(jobs)).map((r) => r.payload))).not.toContain("/access/");
    expect(text.body).toContain("Reply STOP");
    expect(text.body).not.toMatch(/Promissory|Confidential loan terms|Secret refinance|\.pdf/i);
    expect(text.statusCallback).toBe(WEBHOOK_URL);
    expect(textsTo(noConsent)).toHaveLength(0);
    expect(textsTo("+15125550203")).toHaveLength(0);

    const [sent] = await testDb.db.select().from(smsMessages).where(eq(smsMessages.signerId, signer!.id));
    expect(sent).toMatchObject({ status: "sent", providerSid: text.sid });
  });

  it("delivery statuses update the text once per status; replays and forgeries change nothing", async () => {
    const phone = "+15125550211";
    const id = await sendPackage([{ name: "Status Borrower", email: "status@example.test", routingOrder: 1, phone, smsConsent: true }]);
    await drainJobs(testDb.db);
    const sid = textsTo(phone)[0]!.sid;
    const status = (s: string, extra: Record<string, string> = {}) => ({ MessageSid: sid, SmsSid: sid, MessageStatus: s, SmsStatus: s, To: phone, From: FROM, ...extra });

    const delivered = await webhook(status("delivered"));
    expect(delivered.status).toBe(200);
    expect(delivered.headers.get("content-type")).toMatch(/^text\/xml/);
    expect(await delivered.text()).toContain("<Response>");
    // The same post again (Twilio's retry, or someone replaying it): stored once.
    expect((await webhook(status("delivered"))).status).toBe(200);
    const stored = await testDb.db.select().from(inboundEvents).where(and(eq(inboundEvents.source, "sms"), eq(inboundEvents.providerEventId, `${sid}:delivered`)));
    expect(stored).toHaveLength(1);
    await drainJobs(testDb.db);
    const [row] = await testDb.db.select().from(smsMessages).where(eq(smsMessages.providerSid, sid));
    expect(row).toMatchObject({ status: "delivered", providerStatus: "delivered" });

    // A late "sent" does not undo "delivered".
    await webhook(status("sent"));
    await drainJobs(testDb.db);
    expect((await testDb.db.select().from(smsMessages).where(eq(smsMessages.providerSid, sid)))[0]!.status).toBe("delivered");

    // Forged: signed with another token, signature missing, or parameters changed after signing.
    const before = (await testDb.db.select().from(inboundEvents).where(eq(inboundEvents.source, "sms"))).length;
    const forged = await webhook(status("failed", { ErrorCode: "30003" }), { authToken: "not-the-auth-token" });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: "Invalid webhook signature." });
    const unsigned = twilio.webhook(WEBHOOK_URL, { AccountSid: twilio.accountSid, ...status("failed") });
    unsigned.headers.delete("x-twilio-signature");
    expect((await smsWebhookRoute(unsigned)).status).toBe(401);
    const signed = twilio.webhook(WEBHOOK_URL, { AccountSid: twilio.accountSid, ...status("undelivered") });
    const tampered = new Request(WEBHOOK_URL, { method: "POST", headers: signed.headers, body: new URLSearchParams({ AccountSid: twilio.accountSid, ...status("failed") }).toString() });
    expect((await smsWebhookRoute(tampered)).status).toBe(401);
    expect((await testDb.db.select().from(inboundEvents).where(eq(inboundEvents.source, "sms"))).length).toBe(before);
    await drainJobs(testDb.db);
    expect((await testDb.db.select().from(smsMessages).where(eq(smsMessages.providerSid, sid)))[0]!.status).toBe("delivered");

    // The manager's page reads the last text's status.
    const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));
    const view = await listSignerTexts(testDb.db, { organizationId: world.austin.organizationId, signers: [signer!] });
    expect(view[signer!.id]).toMatchObject({ consentAt: expect.any(String), stoppedAt: null, last: { kind: "invitation", status: "delivered" } });
  });

  it("a STOP reply stops texts at once (a queued one too) and is shown; START lets them go again", async () => {
    const phone = "+15125550221";
    const id = await sendPackage([{ name: "Stop Borrower", email: "stop@example.test", routingOrder: 1, phone, smsConsent: true }]);
    await drainJobs(testDb.db);
    expect(textsTo(phone)).toHaveLength(1);
    const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));
    const t0 = new Date();

    // A reminder is queued, then the borrower replies "Stop" before its job runs.
    await remindSigners(testDb.db, { principal: manager, packageId: id, now: t0 });
    expect(await testDb.db.select().from(smsMessages).where(and(eq(smsMessages.signerId, signer!.id), eq(smsMessages.status, "queued")))).toHaveLength(1);
    const stopSid = inboundSid();
    expect((await reply(phone, " Stop ", stopSid)).status).toBe(200);
    expect((await reply(phone, " Stop ", stopSid)).status).toBe(200);
    // Process the STOP first (the reminder's job is also due): the queued text is skipped.
    const [stopEvent] = await testDb.db.select().from(inboundEvents).where(eq(inboundEvents.providerEventId, stopSid));
    const { applySmsEvent } = await import("@/lib/sms/apply-sms-event");
    expect(await applySmsEvent(testDb.db, { inboundEventId: stopEvent!.id })).toBe("processed");
    await drainJobs(testDb.db);
    expect(textsTo(phone)).toHaveLength(1);
    const reminder = (await testDb.db.select().from(smsMessages).where(and(eq(smsMessages.signerId, signer!.id), eq(smsMessages.kind, "reminder"))))[0];
    expect(reminder).toMatchObject({ status: "skipped", skipReason: "opted_out" });
    const optOuts = await testDb.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone));
    expect(optOuts).toMatchObject([{ organizationId: world.austin.organizationId, keyword: "STOP" }]);
    const audit = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, id), eq(auditLog.action, "signer.texts_stopped")));
    expect(audit).toHaveLength(1);
    // Integrators hear it: one `signer.texts_stopped` event, carrying ids only (no phone number, no keyword).
    const stopped = (await testDb.db.select().from(webhookEvents).where(eq(webhookEvents.type, "signer.texts_stopped"))).filter(
      (e) => (e.data as { packageId?: string }).packageId === id,
    );
    expect(stopped.map((e) => [e.organizationId, e.data])).toEqual([
      [world.austin.organizationId, { packageId: id, organizationId: world.austin.organizationId, signerId: signer!.id }],
    ]);
    const view = await listSignerTexts(testDb.db, { organizationId: world.austin.organizationId, signers: [signer!] });
    expect(view[signer!.id]!.stoppedAt).toEqual(expect.any(String));

    // The next hour's reminder goes by email only.
    const t1 = new Date(t0.getTime() + 60 * 60 * 1000);
    expect((await remindSigners(testDb.db, { principal: manager, packageId: id, now: t1 })).remindedSignerIds).toEqual([signer!.id]);
    await drainJobs(testDb.db);
    expect(textsTo(phone)).toHaveLength(1);

    // START: texts resume with the next reminder.
    expect((await reply(phone, "start", inboundSid())).status).toBe(200);
    await drainJobs(testDb.db);
    expect(await testDb.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone))).toHaveLength(0);
    const t2 = new Date(t1.getTime() + 60 * 60 * 1000);
    await remindSigners(testDb.db, { principal: manager, packageId: id, now: t2 });
    await drainJobs(testDb.db);
    expect(textsTo(phone)).toHaveLength(2);
    expect(textsTo(phone)[1]!.body).toContain(`${LENDER}: reminder`);
    expect(textsTo(phone)[1]!.body).toContain(await mailedLink("stop@example.test"));
  });

  it("a resent invitation texts the new link (the older one stops working)", async () => {
    const phone = "+15125550231";
    const id = await sendPackage([{ name: "Resend Borrower", email: "resend@example.test", routingOrder: 1, phone, smsConsent: true }]);
    await drainJobs(testDb.db);
    const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));
    await resendInvitation(testDb.db, { principal: manager, packageId: id, signerId: signer!.id, now: new Date(Date.now() + 120_000) });
    await drainJobs(testDb.db);
    const texts = textsTo(phone);
    expect(texts).toHaveLength(2);
    expect(texts[1]!.body).toContain(await mailedLink("resend@example.test"));
    expect(texts[1]!.body).not.toContain(/\/access\/\S+/.exec(texts[0]!.body)![0]);
  });

  it("Twilio refusing an unsubscribed number (21610) records the opt-out instead of retrying", async () => {
    const phone = "+15125550241";
    twilio.unsubscribed.add(phone);
    const id = await sendPackage([{ name: "Unsub Borrower", email: "unsub@example.test", routingOrder: 1, phone, smsConsent: true }]);
    await drainJobs(testDb.db);
    const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));
    const [row] = await testDb.db.select().from(smsMessages).where(eq(smsMessages.signerId, signer!.id));
    expect(row).toMatchObject({ status: "skipped", skipReason: "opted_out" });
    expect(await testDb.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone))).toHaveLength(1);
    const [job] = await testDb.db.select().from(jobs).where(and(eq(jobs.name, "send-signer-sms"), eq(jobs.idempotencyKey, `sms:signing-invite:${id}:${signer!.id}`)));
    expect(job!.status).toBe("succeeded");
  });
});

describe("'Stop text messages' on the signer's page", () => {
  async function signerPrincipal(packageId: string, email: string) {
    const token = /\/access\/([A-Za-z0-9_-]{43})/.exec(await mailedLink(email))![1]!;
    const opened = await openAccessLink(testDb.db, { token, ipAddress: "203.0.113.70", userAgent: "Mozilla/5.0 (SMS test)" });
    return signerSessionPrincipal((await getSignerSession(testDb.db, { packageId, value: opened!.sessionValue }))!);
  }

  it("stops texts for the organization like a STOP reply; the next reminder goes by email only", async () => {
    const phone = "+15125550271";
    const id = await sendPackage([{ name: "Page Borrower", email: "page@example.test", routingOrder: 1, phone, smsConsent: true }]);
    await drainJobs(testDb.db);
    expect(textsTo(phone)).toHaveLength(1);
    const principal = await signerPrincipal(id, "page@example.test");
    expect(await getMyTexts(testDb.db, { principal, packageId: id })).toEqual({ phoneEnding: "0271", stopped: false });

    await stopMyTexts(testDb.db, { principal, packageId: id });
    await stopMyTexts(testDb.db, { principal, packageId: id });
    expect(await getMyTexts(testDb.db, { principal, packageId: id })).toEqual({ phoneEnding: "0271", stopped: true });
    expect(await testDb.db.select().from(smsOptOuts).where(eq(smsOptOuts.phone, phone))).toMatchObject([{ keyword: "SIGNER_PAGE" }]);
    expect(await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, id), eq(auditLog.action, "signer.texts_stopped")))).toHaveLength(1);

    await remindSigners(testDb.db, { principal: manager, packageId: id, now: new Date(Date.now() + 2 * 60 * 60 * 1000) });
    await drainJobs(testDb.db);
    expect(textsTo(phone)).toHaveLength(1);
  });

  it("a signer who is not texted has no control, and stopping answers 409", async () => {
    const id = await sendPackage([{ name: "Mail Borrower", email: "mailonly@example.test", routingOrder: 1, phone: "+15125550272" }]);
    const principal = await signerPrincipal(id, "mailonly@example.test");
    expect(await getMyTexts(testDb.db, { principal, packageId: id })).toBeNull();
    await expect(stopMyTexts(testDb.db, { principal, packageId: id })).rejects.toMatchObject({ status: 409 });
  });
});

describe("on a local http APP_URL", () => {
  it("texts without a status callback, which Twilio could not call", async () => {
    setEnvForTests({ APP_URL: "http://localhost:3000", TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken, TWILIO_FROM: FROM, TWILIO_API_BASE_URL: twilio.url });
    const phone = "+15125550261";
    await sendPackage([{ name: "Local Borrower", email: "local@example.test", routingOrder: 1, phone, smsConsent: true }]);
    await drainJobs(testDb.db);
    expect(textsTo(phone)).toHaveLength(1);
    expect(textsTo(phone)[0]!.statusCallback).toBeNull();
    expect(textsTo(phone)[0]!.body).toContain("http://localhost:3000/access/");
  });
});

describe("with Twilio not configured", () => {
  it("the email still goes, nothing is queued or texted, and the webhook answers 503", async () => {
    twilioOff();
    const phone = "+15125550251";
    const before = twilio.messages.length;
    const id = await sendPackage([{ name: "Off Borrower", email: "off@example.test", routingOrder: 1, phone, smsConsent: true }]);
    await drainJobs(testDb.db);
    expect(await mailedLink("off@example.test")).toMatch(/\/access\//);
    const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));
    expect(signer!.smsConsentAt).not.toBeNull();
    expect(await testDb.db.select().from(smsMessages).where(eq(smsMessages.signerId, signer!.id))).toHaveLength(0);
    expect(twilio.messages).toHaveLength(before);

    const response = await smsWebhookRoute(twilio.webhook(WEBHOOK_URL, { AccountSid: twilio.accountSid, MessageSid: inboundSid(), From: phone, Body: "STOP" }));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: "Text messages are not set up for this service." });
  });
});
