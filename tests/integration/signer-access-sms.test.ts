import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, packageSigners, signingPackages } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { setEnvForTests } from "@/lib/env";
import { getSignerSession } from "@/lib/signer-access/get-signer-session";
import { openAccessLink } from "@/lib/signer-access/open-access-link";
import { sendSignerCode } from "@/lib/signer-access/send-signer-code";
import { verifySignerProof } from "@/lib/signer-access/verify-signer-proof";
import { createSigning } from "@/lib/signings/create-signing";
import { sendSigning } from "@/lib/signings/send-signing";
import { startFakeTwilio, type FakeTwilio } from "../fakes/twilio/start-fake-twilio";
import { lastDeliveredMailTo } from "../helpers/mail";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";

let testDb: TestDb;
let world: DemoWorld;
let manager: Principal;
let twilio: FakeTwilio;
const evidence = { ipAddress: "203.0.113.62", userAgent: "Mozilla/5.0 (SMS test)" };
const FROM = "+15125550100";
let counter = 0;

function twilioOn() {
  setEnvForTests({ TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: twilio.authToken, TWILIO_FROM: FROM, TWILIO_API_BASE_URL: twilio.url });
}
function twilioOff() {
  setEnvForTests({ TWILIO_ACCOUNT_SID: undefined, TWILIO_AUTH_TOKEN: undefined, TWILIO_FROM: undefined, TWILIO_API_BASE_URL: undefined });
}

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
  twilio = await startFakeTwilio();
});

afterAll(async () => {
  twilioOff();
  await twilio.close();
  await testDb.cleanup();
});

/** A sent one-signer package whose signer proves who they are with a texted code to `phone`. */
async function sendSmsPackage(email: string, phone: string) {
  counter += 1;
  const bytes = await renderAgreementPdf({ title: `Confidential loan terms ${counter}`, parties: ["Borrower"], pages: 1 });
  const created = await createSigning(testDb.db, {
    principal: manager,
    locationId: world.austin.id,
    title: `SMS test ${counter}`,
    signers: [{ name: "Borrower One", email, role: "signer" as const, routingOrder: 1 }],
    documents: [{ name: "Promissory note.pdf", bytes }],
  });
  await testDb.db.update(signingPackages).set({ signerAuthMethod: "sms_code" }).where(eq(signingPackages.id, created.id));
  await testDb.db.update(packageSigners).set({ authMethod: "sms_code", phone }).where(eq(packageSigners.packageId, created.id));
  await sendSigning(testDb.db, { principal: manager, packageId: created.id });
  return created.id;
}

/** Opens the access link from the newest invitation mailed to `email`; returns the live session context. */
async function openFromMail(packageId: string, email: string) {
  const mail = await lastDeliveredMailTo(testDb.db, email);
  const token = /\/access\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no access link mailed to ${email}`);
  const opened = await openAccessLink(testDb.db, { token, ...evidence });
  const context = await getSignerSession(testDb.db, { packageId, value: opened!.sessionValue });
  if (!context) throw new Error("no live session");
  return { context, sessionValue: opened!.sessionValue };
}

describe("sms_code through the twilio SDK and the fake Twilio", () => {
  it("texts a 6-digit code to the signer's phone; a wrong code counts, the right one passes", async () => {
    twilioOn();
    const phone = "+15125550123";
    const id = await sendSmsPackage("sms.borrower@example.test", phone);
    const { context, sessionValue } = await openFromMail(id, "sms.borrower@example.test");
    expect(context.session.authPassedAt).toBeNull();
    const before = twilio.messages.length;
    await testDb.db.transaction((tx) => sendSignerCode(tx, { ...context, method: "sms_code", ...evidence }));
    expect(twilio.messages).toHaveLength(before + 1);
    const sms = twilio.messages.at(-1)!;
    expect(sms.to).toBe(phone);
    expect(sms.from).toBe(FROM);
    const code = /\b(\d{6})\b/.exec(sms.body)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    // The text carries the code and the package title only: no document name or content, no link.
    expect(sms.body).not.toMatch(/Promissory|Confidential loan terms|\.pdf|https?:|\/access\//i);
    expect(sms.body.length).toBeLessThan(160);

    const wrong = code === "000000" ? "111111" : "000000";
    await expect(verifySignerProof(testDb.db, { context, code: wrong, ...evidence })).rejects.toMatchObject({ status: 400 });
    const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));
    expect(signer!.authFailures).toBe(1);
    const failed = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, id), eq(auditLog.action, "signer.auth_failed")));
    expect(failed).toHaveLength(1);

    await verifySignerProof(testDb.db, { context, code: code!, ...evidence });
    const after = await getSignerSession(testDb.db, { packageId: id, value: sessionValue });
    expect(after!.session.authMethod).toBe("sms_code");
    expect(after!.session.authPassedAt).not.toBeNull();
    const entries = await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, id));
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(["signer.auth_requested", "signer.auth_passed"]));
    expect(JSON.stringify(entries)).not.toContain(code!);
    expect(JSON.stringify(entries)).not.toContain(phone);
  });

  it("with Twilio off the method answers the clear 503 and nothing is texted", async () => {
    twilioOff();
    const id = await sendSmsPackage("sms.off@example.test", "+15125550124");
    const { context } = await openFromMail(id, "sms.off@example.test");
    const before = twilio.messages.length;
    await expect(testDb.db.transaction((tx) => sendSignerCode(tx, { ...context, method: "sms_code", ...evidence }))).rejects.toMatchObject({
      status: 503,
      message: "Text messages are not set up for this service. Ask the sender to choose another way for you to prove who you are.",
    });
    expect(twilio.messages).toHaveLength(before);
  });

  it("Twilio refusing the credentials is a 503 asking to try again, not a 500", async () => {
    setEnvForTests({ TWILIO_ACCOUNT_SID: twilio.accountSid, TWILIO_AUTH_TOKEN: "wrong-token", TWILIO_FROM: FROM, TWILIO_API_BASE_URL: twilio.url });
    const id = await sendSmsPackage("sms.badauth@example.test", "+15125550125");
    const { context } = await openFromMail(id, "sms.badauth@example.test");
    const before = twilio.messages.length;
    await expect(testDb.db.transaction((tx) => sendSignerCode(tx, { ...context, method: "sms_code", ...evidence }))).rejects.toMatchObject({
      status: 503,
      message: expect.stringContaining("could not be sent"),
    });
    expect(twilio.messages).toHaveLength(before);
    twilioOff();
  });
});
