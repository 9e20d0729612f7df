import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openEmbeddedUrl } from "@/lib/embedded/embedded-url";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor } from "../helpers/fixtures";
import { as, BASE, createDraft, loadManagerWorld } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";
import { createSignerPackage } from "../helpers/signing-fixtures";

// /v1 for embedded signing: the organization's framing origins and the single-use embedded URL.

const ORIGINS = "/v1/workspace/settings/embed-origins";
const OriginsJson = z.strictObject({ origins: z.array(z.string()) });
const EmbeddedUrlJson = z.strictObject({ url: z.string(), expiresAt: z.string() });
const embeddedUrlOf = (id: string, signerId: string) => `${BASE}/signings/${id}/signers/${signerId}/embedded-url`;

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
  return createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: `embed-api-${counter}@example.test` }], title: `Embed API ${counter}` });
}

describe("the origins allowed to frame embedded signing", () => {
  it("the organization admin replaces and reads the list, in canonical form", async () => {
    expect(OriginsJson.parse((await as("owner@demo.local", ORIGINS)).body)).toEqual({ origins: [] });
    const put = await as("owner@demo.local", ORIGINS, { method: "PUT", json: { origins: ["https://Portal.Lender.example:443", "http://127.0.0.1:4100", "https://portal.lender.example"] } });
    expect(put.status).toBe(200);
    expect(OriginsJson.parse(put.body)).toEqual({ origins: ["https://portal.lender.example", "http://127.0.0.1:4100"] });
    expect((await as("owner@demo.local", ORIGINS)).body).toEqual({ origins: ["https://portal.lender.example", "http://127.0.0.1:4100"] });
  });

  it("400 for an origin with a path, a wildcard, plain http off loopback, or a malformed body; nothing changes", async () => {
    const before = (await as("owner@demo.local", ORIGINS)).body;
    for (const json of [
      { origins: ["https://portal.lender.example/embed"] },
      { origins: ["https://*.lender.example"] },
      { origins: ["http://portal.lender.example"] },
      { origins: ["https://a.example?x"] },
      { origins: "https://portal.lender.example" },
      { origins: ["https://a.example"], extra: true },
      { origins: Array.from({ length: 11 }, (_, i) => `https://o${i}.example`) },
    ]) {
      const res = await as("owner@demo.local", ORIGINS, { method: "PUT", json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      ErrorBody.parse(res.body);
    }
    expect((await as("owner@demo.local", ORIGINS)).body).toEqual(before);
  });

  it("a manager cannot change it (403); another organization is a 404", async () => {
    expect((await as("manager@demo.local", ORIGINS, { method: "PUT", json: { origins: [] } })).status).toBe(403);
    expect((await as("owner@demo.local", `${ORIGINS}?organizationId=${world.tulsa.organizationId}`)).status).toBe(404);
  });
});

describe("POST …/signers/{signerId}/embedded-url", () => {
  it("201 with a URL under /embed/ that opens once, within five minutes; audited without the token", async () => {
    const pkg = await sentPackage();
    const before = Date.now();
    const res = await as("manager@demo.local", embeddedUrlOf(pkg.id, pkg.signers[0]!.id), { method: "POST" });
    expect(res.status).toBe(201);
    const { url, expiresAt } = EmbeddedUrlJson.parse(res.body);
    const token = /\/embed\/([A-Za-z0-9_-]{43})$/.exec(url)![1]!;
    expect(new Date(expiresAt).getTime() - before).toBeGreaterThan(4 * 60_000);
    expect(new Date(expiresAt).getTime() - before).toBeLessThanOrEqual(5 * 60_000 + 5_000);
    expect(await openEmbeddedUrl(testDb.db, { token })).toMatchObject({ state: "opened", packageId: pkg.id });
    expect(await openEmbeddedUrl(testDb.db, { token })).toMatchObject({ state: "refused", reason: "used" });
    expect(JSON.stringify(await auditEntriesFor(testDb.db, pkg.id))).not.toContain(token);
  });

  it("404 outside scope or for a signer of another package; 409 for a draft; nothing issued", async () => {
    const pkg = await sentPackage();
    const signerId = pkg.signers[0]!.id;
    for (const [email, path] of [
      ["manager@other.local", embeddedUrlOf(pkg.id, signerId)],
      ["manager@demo.local", embeddedUrlOf(pkg.id, (await sentPackage()).signers[0]!.id)],
      ["manager@demo.local", embeddedUrlOf(pkg.id, "not-a-uuid")],
      ["manager@demo.local", embeddedUrlOf("00000000-0000-4000-8000-000000000000", signerId)],
    ] as const) {
      const res = await as(email, path, { method: "POST" });
      expect(res.status, `${email} ${path}`).toBe(404);
      ErrorBody.parse(res.body);
    }
    expect((await as("signer@demo.local", embeddedUrlOf(pkg.id, signerId), { method: "POST" })).status).toBe(403);
    const draft = await createDraft("manager@demo.local", { locationId: world.austin.id, signers: [{ name: "D", email: "draft-embed@example.com" }] });
    const draftSigner = ((await as("manager@demo.local", `${BASE}/signings/${draft}/signers`)).body as { data: { id: string }[] }).data[0]!.id;
    expect((await as("manager@demo.local", embeddedUrlOf(draft, draftSigner), { method: "POST" })).status).toBe(409);
    const entries = await auditEntriesFor(testDb.db, pkg.id);
    expect(entries.filter((e) => e.action === "signer.embedded_url_issued")).toHaveLength(0);
  });
});
