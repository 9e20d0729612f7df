// Wrong-code lockout under concurrency (issue 28.8): parallel guesses must not all be compared before
// the count catches up. Runs on PostgreSQL when TEST_DATABASE_URL is set (real row locks, parallel
// connections), else on PGlite; both failed when the lock was read before and the failure recorded after.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, packageSigners, signingPackages } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { getSignerSession } from "@/lib/signer-access/get-signer-session";
import { openAccessLink } from "@/lib/signer-access/open-access-link";
import { verifySignerProof } from "@/lib/signer-access/verify-signer-proof";
import { createSigning } from "@/lib/signings/create-signing";
import { sendSigning } from "@/lib/signings/send-signing";
import { lastDeliveredMailTo } from "../helpers/mail";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";

let testDb: TestDb;
let world: DemoWorld;
let manager: Principal;
const evidence = { ipAddress: "203.0.113.62", userAgent: "Mozilla/5.0 (Lockout test)" };

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
});

afterAll(async () => {
  await testDb.cleanup();
});

async function mailTo(to: string): Promise<string> {
  return (await lastDeliveredMailTo(testDb.db, to)).text;
}

describe("signer proof lockout under concurrency", () => {
  it("50 parallel wrong codes: at most 5 are compared, and the right code is then refused while locked", async () => {
    const email = "parallel.guess@example.test";
    const bytes = await renderAgreementPdf({ title: "Lockout", parties: ["Borrower"], pages: 1 });
    const created = await createSigning(testDb.db, {
      principal: manager,
      locationId: world.austin.id,
      title: "Lockout test",
      signers: [{ name: "Borrower", email, role: "signer", routingOrder: 1 }],
      documents: [{ name: "Note.pdf", bytes }],
    });
    await testDb.db.update(signingPackages).set({ signerAuthMethod: "email_code" }).where(eq(signingPackages.id, created.id));
    await sendSigning(testDb.db, { principal: manager, packageId: created.id });
    const token = /\/access\/([A-Za-z0-9_-]{43})/.exec(await mailTo(email))![1]!;
    const opened = await openAccessLink(testDb.db, { token, ...evidence });
    const context = (await getSignerSession(testDb.db, { packageId: created.id, value: opened!.sessionValue }))!;
    const code = /is (\d{6})\./.exec(await mailTo(email))![1]!;
    const wrong = code === "000000" ? "111111" : "000000";

    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => verifySignerProof(testDb.db, { context, code: wrong, ...evidence })));
    const statuses = outcomes.map((o) => (o.status === "rejected" ? (o.reason as { status?: number }).status : 200));
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
    // Each compared wrong code is counted on the signer and audited once.
    const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, created.id));
    expect(signer!.authFailures).toBeLessThanOrEqual(5);
    const failed = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, created.id), eq(auditLog.action, "signer.auth_failed")));
    expect(failed.length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(45);

    await expect(verifySignerProof(testDb.db, { context, code, ...evidence })).rejects.toMatchObject({ status: 429 });
    const after = await getSignerSession(testDb.db, { packageId: created.id, value: opened!.sessionValue });
    expect(after!.session.authPassedAt).toBeNull();
  });
});
