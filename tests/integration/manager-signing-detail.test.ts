import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, jobs, vaultDeliveries } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { setEnvForTests } from "@/lib/env";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { getManagerSigningPage } from "@/lib/views/get-manager-signing-page";
import { remindSigners } from "@/lib/signings/remind-signers";
import { listSigningVaultDeliveries } from "@/lib/vault/list-signing-vault-deliveries";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, type FixturePackage } from "../helpers/signing-fixtures";

// The reads behind the manager's package page (/signings/<id>): the vault deliveries of a package
// and the page's composition (audit verdict with positions, reminders, names, who may act).

let testDb: TestDb;
let world: DemoWorld;
const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));

async function sign(email: string, pkg: FixturePackage, index: number) {
  const { eSignature } = await recordESignature(testDb.db, {
    principal: await principalFor(email),
    packageId: pkg.id,
    documentId: pkg.documents[index]!.id,
    signature: { kind: "typed", text: "Detail Signer", font: "dancing-script" },
    consent: true,
    documentSha256: pkg.documents[index]!.sha256,
    ipAddress: "198.51.100.7",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  });
  return eSignature.id;
}

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  await createUser(testDb.db, "detail-dallas@demo.local", [
    { role: "manager", organizationId: world.dallas.organizationId, companyId: world.dallas.companyId, locationId: world.dallas.id },
  ]);
  await createUser(testDb.db, "detail-austin@demo.local", [
    { role: "manager", organizationId: world.austin.organizationId, companyId: world.austin.companyId, locationId: world.austin.id },
  ]);
});

afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

describe("listSigningVaultDeliveries", () => {
  // The delivery job is only enqueued when a vault is configured (nothing is sent to it here).
  beforeAll(() => {
    setEnvForTests({ VAULT_WEBHOOK_URL: "http://127.0.0.1:9/vault", LOG_LEVEL: "silent" });
  });
  afterAll(() => {
    setEnvForTests({ VAULT_WEBHOOK_URL: undefined });
  });

  it("lists one row per e-signature with every attempt and the outcome, oldest first", async () => {
    const pkg = await createSignerPackage(testDb.db, {
      location: world.austin,
      signers: [{ email: "vault-a@example.test" }],
      documentCount: 3,
      title: "Vault listing",
    });
    const delivered = await sign("vault-a@example.test", pkg, 0);
    const gaveUp = await sign("vault-a@example.test", pkg, 1);
    const queued = await sign("vault-a@example.test", pkg, 2);
    await testDb.db.insert(vaultDeliveries).values([
      { eSignatureId: delivered, attempt: 1, statusCode: 500, error: "HTTP 500", durationMs: 31 },
      { eSignatureId: delivered, attempt: 2, statusCode: 202, error: null, durationMs: 12 },
      { eSignatureId: gaveUp, attempt: 1, statusCode: null, error: "TimeoutError: The operation was aborted due to timeout", durationMs: 10_000 },
    ]);
    await testDb.db.update(jobs).set({ status: "failed" }).where(and(eq(jobs.name, "deliver-vault-event"), eq(jobs.idempotencyKey, gaveUp)));

    const rows = await listSigningVaultDeliveries(testDb.db, { principal: await principalFor("manager@demo.local"), packageId: pkg.id });
    expect(rows.map((r) => [r.eSignatureId, r.documentName, r.signerName, r.status])).toEqual([
      [delivered, "Document 1.pdf", "vault-a", "delivered"],
      [gaveUp, "Document 2.pdf", "vault-a", "failed"],
      [queued, "Document 3.pdf", "vault-a", "pending"],
    ]);
    expect(rows[0]!.attempts.map((a) => [a.attempt, a.statusCode, a.error, a.durationMs])).toEqual([
      [1, 500, "HTTP 500", 31],
      [2, 202, null, 12],
    ]);
    expect(rows[1]!.attempts).toHaveLength(1);
    expect(rows[1]!.nextAttemptAt).toBeNull();
    expect(rows[2]!.attempts).toEqual([]);
    expect(rows[2]!.nextAttemptAt).not.toBeNull();
  });

  it("says 'not configured' for a signature made without a vault", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "vault-n@example.test" }], title: "No vault" });
    setEnvForTests({ VAULT_WEBHOOK_URL: undefined, LOG_LEVEL: "silent" });
    try {
      await sign("vault-n@example.test", pkg, 0);
    } finally {
      setEnvForTests({ VAULT_WEBHOOK_URL: "http://127.0.0.1:9/vault", LOG_LEVEL: "silent" });
    }
    const rows = await listSigningVaultDeliveries(testDb.db, { principal: await principalFor("manager@demo.local"), packageId: pkg.id });
    expect(rows.map((r) => [r.status, r.attempts.length, r.nextAttemptAt])).toEqual([["not_configured", 0, null]]);
  });

  it("says 'retrying' while attempts failed and the job is still queued, and is empty before anyone signs", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "vault-b@example.test" }], title: "Vault retry" });
    const manager = await principalFor("manager@demo.local");
    expect(await listSigningVaultDeliveries(testDb.db, { principal: manager, packageId: pkg.id })).toEqual([]);
    const id = await sign("vault-b@example.test", pkg, 0);
    await testDb.db.insert(vaultDeliveries).values({ eSignatureId: id, attempt: 1, statusCode: 503, error: "HTTP 503", durationMs: 40 });
    const [row] = await listSigningVaultDeliveries(testDb.db, { principal: manager, packageId: pkg.id });
    expect(row).toMatchObject({ status: "retrying", attempts: [{ attempt: 1, statusCode: 503 }] });
  });

  it("is scoped like reading the package: 404 outside the caller's scope, 403 without the capability, admins read", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "vault-c@example.test" }], title: "Vault scope" });
    await sign("vault-c@example.test", pkg, 0);
    const read = async (email: string) => listSigningVaultDeliveries(testDb.db, { principal: await principalFor(email), packageId: pkg.id });

    await expect(read("detail-dallas@demo.local")).rejects.toMatchObject({ code: "not_found" });
    await expect(read("manager@other.local")).rejects.toMatchObject({ code: "not_found" });
    await expect(read("vault-c@example.test")).rejects.toMatchObject({ code: "forbidden" });
    expect(await read("detail-austin@demo.local")).toHaveLength(1);
    expect(await read("admin@demo.local")).toHaveLength(1);
    await expect(
      listSigningVaultDeliveries(testDb.db, { principal: await principalFor("manager@demo.local"), packageId: "not-a-uuid" }),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("getManagerSigningPage", () => {
  it("counts the verified chain, names who acted, keeps each signer's last reminder and the request's evidence", async () => {
    const pkg = await createSignerPackage(testDb.db, {
      location: world.austin,
      signers: [{ email: "page-a@example.test" }, { email: "page-b@example.test", routingOrder: 2 }],
      title: "Page composition",
    });
    await sign("page-a@example.test", pkg, 0);
    const manager = await principalFor("manager@demo.local");
    await remindSigners(testDb.db, { principal: manager, packageId: pkg.id, ipAddress: "203.0.113.9" });

    const page = await getManagerSigningPage(testDb.db, { principal: manager, packageId: pkg.id });
    const stored = await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, pkg.id)).orderBy(auditLog.id);
    expect(page.audit).toMatchObject({ verified: true, brokenAt: null, total: stored.length, nextCursor: null });
    expect(page.audit!.entries.map((e) => e.position)).toEqual(stored.map((_, i) => i + 1));

    const signed = page.audit!.entries.find((e) => e.action === "esignature.recorded")!;
    expect(signed).toMatchObject({ actorName: "page-a", ipAddress: "198.51.100.7", subject: "Document 1.pdf" });
    expect(signed.userAgent).toContain("Chrome/131");
    const reminded = page.audit!.entries.find((e) => e.action === "signer.reminded")!;
    expect(reminded).toMatchObject({ actorName: "Max Manager", ipAddress: "203.0.113.9", subject: "page-b" });

    const second = page.detail.signers.find((s) => s.email === "page-b@example.test")!;
    const first = page.detail.signers.find((s) => s.email === "page-a@example.test")!;
    expect(page.lastReminderAt[second.id]).toBe(stored.find((e) => e.action === "signer.reminded")!.createdAt.toISOString());
    expect(page.lastReminderAt[first.id]).toBeUndefined();
    expect(page.place).toEqual({ organizationName: "Demo Lending Co.", companyName: "Demo Homes Finance", locationName: "Austin Branch" });
    expect(page.canWrite).toBe(true);
  });

  it("says where the chain breaks, by position, after an entry is edited", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "page-c@example.test" }], title: "Tampered" });
    await sign("page-c@example.test", pkg, 0);
    const stored = await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, pkg.id)).orderBy(auditLog.id);
    const victim = stored[2]!;
    await testDb.db.update(auditLog).set({ ipAddress: "10.6.6.6" }).where(eq(auditLog.id, victim.id));

    const page = await getManagerSigningPage(testDb.db, { principal: await principalFor("manager@demo.local"), packageId: pkg.id });
    expect(page.audit!.verified).toBe(false);
    expect(page.audit!.brokenAt).toMatchObject({ id: victim.id, position: 3, action: victim.action });
  });

  it("pages the trail with positions that continue, and starts over on a cursor that does not decode", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "page-d@example.test" }], title: "Long trail" });
    const manager = await principalFor("manager@demo.local");
    // 100 more entries than one page holds: reminders are once an hour, so write through the real appender.
    const { recordAuditEntry } = await import("@/lib/audit/record-audit-entry");
    for (let i = 0; i < 100; i++) {
      await recordAuditEntry(testDb.db, {
        organizationId: world.austin.organizationId,
        packageId: pkg.id,
        actorUserId: manager.user.id,
        action: "signing.updated",
        entityType: "signing_package",
        entityId: pkg.id,
      });
    }
    const total = (await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, pkg.id))).length;
    const first = await getManagerSigningPage(testDb.db, { principal: manager, packageId: pkg.id });
    expect(first.audit!.entries).toHaveLength(100);
    expect(first.audit!.nextCursor).not.toBeNull();
    const next = await getManagerSigningPage(testDb.db, { principal: manager, packageId: pkg.id, auditCursor: first.audit!.nextCursor! });
    expect(next.audit!.entries.map((e) => e.position)).toEqual(Array.from({ length: total - 100 }, (_, i) => 101 + i));
    expect(next.audit!.total).toBe(total);
    const forged = await getManagerSigningPage(testDb.db, { principal: manager, packageId: pkg.id, auditCursor: "bogus.cursor" });
    expect(forged.audit!.entries[0]!.position).toBe(1);
  });

  it("lets admins read without acting, and answers 404 outside the manager's scope", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "page-e@example.test" }], title: "Admin read" });
    const admin = await getManagerSigningPage(testDb.db, { principal: await principalFor("admin@demo.local"), packageId: pkg.id });
    expect(admin.canWrite).toBe(false);
    expect(admin.audit?.verified).toBe(true);
    await expect(
      getManagerSigningPage(testDb.db, { principal: await principalFor("detail-dallas@demo.local"), packageId: pkg.id }),
    ).rejects.toMatchObject({ code: "not_found" });
  });
});
