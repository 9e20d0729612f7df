import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { idempotencyKeys, inPersonSignings, inPersonSigningTokens, signerSessions } from "@/db/schema";
import { openInPersonUrl } from "@/lib/in-person/in-person-url";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor } from "../helpers/fixtures";
import { as, BASE, createDraft, loadManagerWorld } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";
import { createSignerPackage } from "../helpers/signing-fixtures";

// /v1 for an integrator's own desk app: a single-use URL that starts signing in person on the device at the desk.

const InPersonUrlJson = z.strictObject({ url: z.string(), expiresAt: z.string() });
const inPersonUrlOf = (id: string, signerId: string) => `${BASE}/signings/${id}/signers/${signerId}/in-person-url`;
const identification = { idType: "drivers_license", idIssuer: "Texas", idLastFour: "4821" } as const;

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

async function sentPackage() {
  counter += 1;
  return createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: `desk-api-${counter}@example.test` }], title: `Desk API ${counter}` });
}

/** What a refused request must not have left behind: no token, no session, no in-person row, no entry about either. */
async function expectNothingFor(packageId: string) {
  expect(await testDb.db.select().from(inPersonSigningTokens).where(eq(inPersonSigningTokens.packageId, packageId))).toEqual([]);
  expect(await testDb.db.select().from(signerSessions).where(eq(signerSessions.packageId, packageId))).toEqual([]);
  expect(await testDb.db.select().from(inPersonSignings).where(eq(inPersonSignings.packageId, packageId))).toEqual([]);
  const actions = (await auditEntriesFor(testDb.db, packageId)).map((e) => e.action);
  expect(actions.filter((a) => a.startsWith("signer.in_person") || a === "signer.auth_passed")).toEqual([]);
}

describe("POST …/signers/{signerId}/in-person-url", () => {
  it("201 with a URL under /in-person/ that opens once, within five minutes; the API key's user is the host; the token is stored only as its hash", async () => {
    const pkg = await sentPackage();
    const signerId = pkg.signers[0]!.id;
    const before = Date.now();
    const res = await as("manager@demo.local", inPersonUrlOf(pkg.id, signerId), { method: "POST", json: { identification: { ...identification, idLastFour: "4821" } } });
    expect(res.status).toBe(201);
    const { url, expiresAt } = InPersonUrlJson.parse(res.body);
    const token = /\/in-person\/([A-Za-z0-9_-]{43})$/.exec(url)![1]!;
    expect(new Date(expiresAt).getTime() - before).toBeGreaterThan(4 * 60_000);
    expect(new Date(expiresAt).getTime() - before).toBeLessThanOrEqual(5 * 60_000 + 5_000);

    const [row] = await testDb.db.select().from(inPersonSigningTokens).where(eq(inPersonSigningTokens.packageId, pkg.id));
    expect(row).toMatchObject({ signerId, hostName: "Max Manager", hostEmail: "manager@demo.local", ...identification, usedAt: null });
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    const issued = (await auditEntriesFor(testDb.db, pkg.id)).find((e) => e.action === "signer.in_person_url_issued");
    expect(row!.hostUserId).not.toBeNull();
    expect(issued).toMatchObject({ entityId: signerId, actorUserId: row!.hostUserId });
    expect(issued!.after).toMatchObject({ host: { name: "Max Manager", email: "manager@demo.local" }, identification });
    // Issuing opens nothing yet.
    expect(await testDb.db.select().from(signerSessions).where(eq(signerSessions.packageId, pkg.id))).toEqual([]);

    expect(await openInPersonUrl(testDb.db, { token })).toMatchObject({ state: "opened", packageId: pkg.id });
    expect(await openInPersonUrl(testDb.db, { token })).toMatchObject({ state: "refused", reason: "used" });
    expect(JSON.stringify(await auditEntriesFor(testDb.db, pkg.id))).not.toContain(token);
  });

  it("ignores an Idempotency-Key: the URL is never stored, and a retry issues another", async () => {
    const pkg = await sentPackage();
    const send = () =>
      as("manager@demo.local", inPersonUrlOf(pkg.id, pkg.signers[0]!.id), { method: "POST", json: { identification }, headers: { "idempotency-key": `desk-${pkg.id}` } });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    const urls = [InPersonUrlJson.parse(first.body).url, InPersonUrlJson.parse(second.body).url];
    expect(urls[0]).not.toBe(urls[1]);
    const kept = await testDb.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, `desk-${pkg.id}`));
    expect(kept).toEqual([]);
    const token = urls[0]!.split("/").at(-1)!;
    expect(JSON.stringify(await testDb.db.select().from(idempotencyKeys))).not.toContain(token);
  });

  it("upper-cases the last four, as the console's form does", async () => {
    const pkg = await sentPackage();
    const res = await as("manager@demo.local", inPersonUrlOf(pkg.id, pkg.signers[0]!.id), { method: "POST", json: { identification: { idType: "passport", idIssuer: " United States ", idLastFour: "x9z1" } } });
    expect(res.status).toBe(201);
    const [row] = await testDb.db.select().from(inPersonSigningTokens).where(eq(inPersonSigningTokens.packageId, pkg.id));
    expect(row).toMatchObject({ idType: "passport", idIssuer: "United States", idLastFour: "X9Z1" });
  });

  it("400 with the field named for a bad identification or body; nothing is issued", async () => {
    const pkg = await sentPackage();
    const signerId = pkg.signers[0]!.id;
    for (const [json, field] of [
      [{ identification: { ...identification, idLastFour: "12345678" } }, "last four"],
      [{ identification: { ...identification, idLastFour: "48-1" } }, "last four"],
      [{ identification: { ...identification, idType: "library_card" } }, "kind of identification"],
      [{ identification: { ...identification, idIssuer: "" } }, "who issued"],
      [{ identification: { ...identification, number: "D12345678" } }, "number"],
      [{ identification: { kind: "drivers_license", issuer: "Texas", lastFour: "4821" } }, "identification"],
      [{}, "identification"],
      [{ identification }, null],
    ] as const) {
      const body = field === null ? { ...json, extra: true } : json;
      const res = await as("manager@demo.local", inPersonUrlOf(pkg.id, signerId), { method: "POST", json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = ErrorBody.parse(res.body);
      if (field) expect(error.error.toLowerCase(), JSON.stringify(body)).toContain(field);
    }
    await expectNothingFor(pkg.id);
  });

  it("404 for another organization's package, another package's signer or an unknown one; 403 for a signer; 409 for a draft, a finished signer or a closed package; nothing is issued", async () => {
    const pkg = await sentPackage();
    const signerId = pkg.signers[0]!.id;
    const post = (email: string, path: string) => as(email, path, { method: "POST", json: { identification } });
    for (const [email, path] of [
      ["manager@other.local", inPersonUrlOf(pkg.id, signerId)],
      ["manager@demo.local", inPersonUrlOf(pkg.id, (await sentPackage()).signers[0]!.id)],
      ["manager@demo.local", inPersonUrlOf(pkg.id, "not-a-uuid")],
      ["manager@demo.local", inPersonUrlOf("00000000-0000-4000-8000-000000000000", signerId)],
    ] as const) {
      const res = await post(email, path);
      expect(res.status, `${email} ${path}`).toBe(404);
      ErrorBody.parse(res.body);
    }
    expect((await post(pkg.signers[0]!.email, inPersonUrlOf(pkg.id, signerId))).status).toBe(403);
    expect((await post("signer@demo.local", inPersonUrlOf(pkg.id, signerId))).status).toBe(403);

    const draft = await createDraft("manager@demo.local", { locationId: world.austin.id, signers: [{ name: "D", email: "draft-desk@example.com" }] });
    const draftSigner = ((await as("manager@demo.local", `${BASE}/signings/${draft}/signers`)).body as { data: { id: string }[] }).data[0]!.id;
    const draftRes = await post("manager@demo.local", inPersonUrlOf(draft, draftSigner));
    expect(draftRes.status).toBe(409);
    expect(ErrorBody.parse(draftRes.body).error).toMatch(/draft/);

    const cancelled = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "desk-api-cancelled@example.test" }], status: "cancelled" });
    expect((await post("manager@demo.local", inPersonUrlOf(cancelled.id, cancelled.signers[0]!.id))).status).toBe(409);
    await expectNothingFor(pkg.id);
    await expectNothingFor(draft);
    await expectNothingFor(cancelled.id);
  });
});
