import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog, packageSigners } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { exchangePublicToken } from "@/lib/bank/exchange-public-token";
import { getBankStep } from "@/lib/bank/get-bank-step";
import { setEnvForTests } from "@/lib/env";
import { startFakePlaid, type FakePlaid } from "@/tests/fakes/plaid/server";
import { bankEnv } from "@/tests/helpers/bank";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { loadDemoWorld, type DemoWorld } from "@/tests/helpers/fixtures";
import { createSignerPackage, getDemoPackage } from "@/tests/helpers/signing-fixtures";

let testDb: TestDb;
let fake: FakePlaid;
let world: DemoWorld;
let demo: Awaited<ReturnType<typeof getDemoPackage>>;

const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));

beforeAll(async () => {
  testDb = await createTestDb();
  fake = await startFakePlaid();
  world = await loadDemoWorld(testDb.db);
  demo = await getDemoPackage(testDb.db);
});

beforeEach(() => {
  setEnvForTests(bankEnv(fake));
});

afterAll(async () => {
  setEnvForTests({});
  await fake.close();
  await testDb.cleanup();
});

describe("getBankStep", () => {
  it("offers Plaid Link to a signer of a package whose flow links a bank, and records nothing", async () => {
    const principal = await principalFor("signer@demo.local");
    const before = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, demo.id));
    const step = await getBankStep(testDb.db, { principal, packageId: demo.id });
    expect(step).toEqual({
      signing: { id: demo.id, title: "Retail installment contract — Sam Signer", status: "sent" },
      // The lender's mark (no brand set: its name and the default colour).
      brand: { displayName: "Demo Lending Co.", color: "#1d4ed8", logoPath: null },
      signerStatus: "notified",
      steps: ["review", "sign", "link_bank", "done"],
      availability: "available",
      bank: { connected: false, item: null, items: [] },
    });
    expect(await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, demo.id))).toEqual(before);
    const viewed = await testDb.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.packageId, demo.id), eq(auditLog.action, "signer.viewed")));
    expect(viewed).toEqual([]);
  });

  it("shows the signer's linked bank with its institution once Link's public token was exchanged", async () => {
    const principal = await principalFor("cosigner@demo.local");
    const publicToken = fake.issuePublicToken({ institutionId: "ins_109511", institutionName: "Tartan Bank" });
    const exchanged = await exchangePublicToken(testDb.db, { owner: { kind: "user", userId: principal.user.id }, publicToken });
    const step = await getBankStep(testDb.db, { principal, packageId: demo.id });
    expect(step.availability).toBe("available");
    expect(step.bank.connected).toBe(true);
    expect(step.bank.item).toMatchObject({ item_id: exchanged.item_id, institution_id: "ins_109511", institution_name: "Tartan Bank", health: "healthy" });
    // Another signer's link is theirs alone.
    expect((await getBankStep(testDb.db, { principal: await principalFor("signer@demo.local"), packageId: demo.id })).bank.connected).toBe(false);
  });

  it("says bank linking is not configured when PLAID_CLIENT_ID / PLAID_SECRET are unset", async () => {
    setEnvForTests({});
    const step = await getBankStep(testDb.db, { principal: await principalFor("signer@demo.local"), packageId: demo.id });
    expect(step.availability).toBe("not_configured");
  });

  it("says the package's flow has no bank step when it has none", async () => {
    // The other organization's default flow is review → sign → done.
    const pkg = await createSignerPackage(testDb.db, { location: world.tulsa, signers: [{ email: "bank-step-tulsa@example.com" }] });
    const step = await getBankStep(testDb.db, { principal: await principalFor("bank-step-tulsa@example.com"), packageId: pkg.id });
    expect(step.steps).toEqual(["review", "sign", "done"]);
    expect(step.availability).toBe("not_in_flow");
  });

  it.each(["cancelled", "declined", "expired"] as const)("closes the step on a %s package", async (status) => {
    const email = `bank-step-${status}@example.com`;
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email }], status });
    const step = await getBankStep(testDb.db, { principal: await principalFor(email), packageId: pkg.id });
    expect(step.signing.status).toBe(status);
    expect(step.availability).toBe("closed");
  });

  it("answers 404 for a package the caller does not sign, a draft and a malformed id", async () => {
    const outsider = await principalFor("manager@demo.local");
    await expect(getBankStep(testDb.db, { principal: outsider, packageId: demo.id })).rejects.toMatchObject({ code: "not_found" });
    const signer = await principalFor("signer@demo.local");
    const draft = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "signer@demo.local" }], status: "draft" });
    await expect(getBankStep(testDb.db, { principal: signer, packageId: draft.id })).rejects.toMatchObject({ code: "not_found" });
    await expect(getBankStep(testDb.db, { principal: signer, packageId: "not-a-uuid" })).rejects.toMatchObject({ code: "not_found" });
  });
});
