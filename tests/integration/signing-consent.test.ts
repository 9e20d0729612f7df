import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog } from "@/db/schema";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { declineSigning } from "@/lib/signings/decline-signing";
import { getSigningConsent } from "@/lib/signings/get-signing-consent";
import { recordSigningConsent } from "@/lib/signings/record-signing-consent";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage } from "../helpers/signing-fixtures";

let testDb: TestDb;
let world: DemoWorld;

const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));
const consentEntries = (packageId: string) =>
  testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, packageId), eq(auditLog.action, "signer.consented"))).orderBy(auditLog.id);

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});

afterAll(async () => {
  await testDb.cleanup();
});

describe("recordSigningConsent / getSigningConsent", () => {
  it("records the acceptance once per signer and package, with time, IP, user agent and disclosure version in the audit trail", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "consent-a@example.test" }] });
    const principal = await principalFor("consent-a@example.test");
    expect(await getSigningConsent(testDb.db, { principal, packageId: pkg.id })).toBeNull();

    const before = Date.now();
    const first = await recordSigningConsent(testDb.db, {
      principal,
      packageId: pkg.id,
      disclosureVersion: "2025-01",
      ipAddress: "203.0.113.7",
      userAgent: "Mozilla/5.0 (Test) Consent/1",
    });
    const again = await recordSigningConsent(testDb.db, {
      principal,
      packageId: pkg.id,
      disclosureVersion: "2025-01",
      ipAddress: "198.51.100.9",
      userAgent: "Other/2",
    });

    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.consent).toEqual(first.consent);
    const entries = await consentEntries(pkg.id);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({
      actorUserId: pkg.signers[0]!.userId,
      entityType: "package_signer",
      entityId: pkg.signers[0]!.id,
      ipAddress: "203.0.113.7",
      after: { disclosureVersion: "2025-01", userAgent: "Mozilla/5.0 (Test) Consent/1" },
    });
    expect(entry!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(entry!.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await getSigningConsent(testDb.db, { principal, packageId: pkg.id })).toEqual({
      signerId: pkg.signers[0]!.id,
      consentedAt: entry!.createdAt.toISOString(),
      ipAddress: "203.0.113.7",
      userAgent: "Mozilla/5.0 (Test) Consent/1",
      disclosureVersion: "2025-01",
      disclosureLanguage: "en",
    });
    expect(await verifyAuditChain(testDb.db, { packageId: pkg.id })).toEqual({ verified: true, brokenAt: null });
  });

  it("leaves one entry when the same signer accepts from two tabs at once", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "consent-race@example.test" }] });
    const principal = await principalFor("consent-race@example.test");
    const results = await Promise.all(
      Array.from({ length: 4 }, () => recordSigningConsent(testDb.db, { principal, packageId: pkg.id, disclosureVersion: "2025-01" })),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await consentEntries(pkg.id)).toHaveLength(1);
  });

  it("is per signer and per package: a co-signer's or another package's acceptance does not count", async () => {
    const first = await createSignerPackage(testDb.db, {
      location: world.austin,
      signers: [{ email: "consent-b@example.test" }, { email: "consent-c@example.test", role: "co_signer" }],
    });
    const second = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "consent-b@example.test" }] });
    const b = await principalFor("consent-b@example.test");
    const c = await principalFor("consent-c@example.test");
    await recordSigningConsent(testDb.db, { principal: b, packageId: first.id, disclosureVersion: "2025-01" });

    expect(await getSigningConsent(testDb.db, { principal: b, packageId: first.id })).not.toBeNull();
    expect(await getSigningConsent(testDb.db, { principal: c, packageId: first.id })).toBeNull();
    expect(await getSigningConsent(testDb.db, { principal: b, packageId: second.id })).toBeNull();
  });

  it("answers 404 for a package that is not the caller's, and records nothing", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "consent-d@example.test" }] });
    const stranger = await principalFor("signer@demo.local");
    await expect(recordSigningConsent(testDb.db, { principal: stranger, packageId: pkg.id, disclosureVersion: "2025-01" })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(getSigningConsent(testDb.db, { principal: stranger, packageId: pkg.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(recordSigningConsent(testDb.db, { principal: stranger, packageId: "not-a-uuid", disclosureVersion: "2025-01" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await consentEntries(pkg.id)).toHaveLength(0);
  });

  it("refuses a package that can no longer be signed, and a signer who declined, with 409", async () => {
    const cancelled = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "consent-e@example.test" }], status: "cancelled" });
    const e = await principalFor("consent-e@example.test");
    await expect(recordSigningConsent(testDb.db, { principal: e, packageId: cancelled.id, disclosureVersion: "2025-01" })).rejects.toMatchObject({
      code: "conflict",
      message: "This signing package is cancelled; it can no longer be signed.",
    });

    const declined = await createSignerPackage(testDb.db, {
      location: world.austin,
      signers: [{ email: "consent-f@example.test" }],
    });
    const f = await principalFor("consent-f@example.test");
    await declineSigning(testDb.db, { principal: f, packageId: declined.id, reason: "Wrong amount." });
    await expect(recordSigningConsent(testDb.db, { principal: f, packageId: declined.id, disclosureVersion: "2025-01" })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await consentEntries(cancelled.id)).toHaveLength(0);
    expect(await consentEntries(declined.id)).toHaveLength(0);
  });

  it("keeps an acceptance given before the package closed readable afterwards", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "consent-g@example.test" }] });
    const g = await principalFor("consent-g@example.test");
    await recordSigningConsent(testDb.db, { principal: g, packageId: pkg.id, disclosureVersion: "2025-01" });
    await declineSigning(testDb.db, { principal: g, packageId: pkg.id, reason: "Changed my mind." });
    expect(await getSigningConsent(testDb.db, { principal: g, packageId: pkg.id })).toMatchObject({ disclosureVersion: "2025-01" });
    const repeat = await recordSigningConsent(testDb.db, { principal: g, packageId: pkg.id, disclosureVersion: "2025-01" });
    expect(repeat.created).toBe(false);
  });
});
