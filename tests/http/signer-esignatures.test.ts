import { and, eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { eSignatures, jobs, packageSigners, signatureRequests, signingPackages } from "@/db/schema";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { setEnvForTests } from "@/lib/env";
import { callApi, tokenFor } from "../helpers/api";
import { deliveredMailsTo, emailJobRecipient } from "../helpers/mail";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ErrorBody } from "../helpers/schemas";
import { createSignerPackage, getDemoPackage, pngDataUrl, signerSideCounts, type FixturePackage } from "../helpers/signing-fixtures";

const BASE = "/v1/signing/signer/signings";
const ESignature = z.strictObject({
  id: z.uuid(),
  signingId: z.uuid(),
  documentId: z.uuid(),
  signatureRequestId: z.uuid(),
  signerId: z.uuid(),
  authUserId: z.uuid(),
  kind: z.enum(["drawn", "typed"]),
  typedText: z.string().nullable(),
  typedFont: z.string().nullable(),
  consentGiven: z.literal(true),
  documentSha256: z.string().regex(/^[0-9a-f]{64}$/),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  idempotencyKey: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
const ESignaturePage = z.strictObject({ data: z.array(ESignature), nextCursor: z.string().nullable() });

const drawn = (extra: Record<string, unknown> = {}) => ({ kind: "drawn", imageDataUrl: pngDataUrl(), consent: true, ...extra });
const typed = (extra: Record<string, unknown> = {}) => ({ kind: "typed", text: "Sam Signer", font: "caveat", consent: true, ...extra });

let testDb: TestDb;
let world: DemoWorld;
const tokens = new Map<string, string>();

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});
afterAll(() => testDb.cleanup());
afterEach(() => {
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined, VAULT_WEBHOOK_SECRET: undefined });
});

async function token(email: string) {
  if (!tokens.has(email)) tokens.set(email, await tokenFor(email));
  return tokens.get(email)!;
}

async function sign(email: string, packageId: string, documentId: string, body: unknown, headers: Record<string, string> = {}) {
  return callApi(`${BASE}/${packageId}/documents/${documentId}/esignatures`, { method: "POST", token: await token(email), json: body, headers });
}

let counter = 0;
async function pkg(signers: { email: string; routingOrder?: number }[], options: { documentCount?: number; status?: "sent" | "in_progress" | "draft" | "completed" | "cancelled" | "declined" | "expired" } = {}) {
  counter += 1;
  return createSignerPackage(testDb.db, { location: world.austin, title: `E-sign ${counter}`, signers, ...options });
}
const unique = (name: string) => `${name}-${++counter}@demo.local`;

async function packageStatus(id: string) {
  const [row] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, id));
  return row!;
}

describe("POST …/documents/{docId}/esignatures on the demo package", () => {
  let demo: Awaited<ReturnType<typeof getDemoPackage>>;
  let first: z.infer<typeof ESignature>;

  beforeAll(async () => {
    demo = await getDemoPackage(testDb.db);
  });

  it("records the evidence: 201, request and signer signed, package in progress, audited", async () => {
    const seeded = (await auditEntriesFor(testDb.db, demo.id)).length;
    // Behind two trusted proxies the client is the second X-Forwarded-For entry from the right.
    setEnvForTests({ TRUSTED_PROXY_HOPS: "2" });
    const res = await sign("signer@demo.local", demo.id, demo.document.id, drawn({ documentSha256: demo.document.sha256 }), {
      "x-forwarded-for": "203.0.113.7, 10.0.0.1",
      "user-agent": "Vitest/4 (signing test)",
    });
    expect(res.status).toBe(201);
    first = ESignature.parse(res.body);
    const sam = demo.signers.find((s) => s.email === "signer@demo.local")!;
    expect(first).toMatchObject({
      signingId: demo.id,
      documentId: demo.document.id,
      signerId: sam.id,
      authUserId: sam.userId,
      kind: "drawn",
      typedText: null,
      documentSha256: demo.document.sha256,
      ipAddress: "203.0.113.7",
      userAgent: "Vitest/4 (signing test)",
      idempotencyKey: null,
    });
    const [stored] = await testDb.db.select().from(eSignatures).where(eq(eSignatures.id, first.id));
    expect(stored!.imageDataUrl).toBe(pngDataUrl());
    const [request] = await testDb.db.select().from(signatureRequests).where(eq(signatureRequests.id, first.signatureRequestId));
    expect(request).toMatchObject({ status: "signed" });
    const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.id, sam.id));
    expect(signer).toMatchObject({ status: "signed" });
    expect((await packageStatus(demo.id)).status).toBe("in_progress");
    const actions = (await auditEntriesFor(testDb.db, demo.id)).slice(seeded).map((e) => e.action);
    expect(actions).toEqual(["esignature.recorded", "signer.signed", "signing.in_progress"]);
    const recorded = (await auditEntriesFor(testDb.db, demo.id))[seeded]!;
    expect(recorded).toMatchObject({ entityId: first.id, ipAddress: "203.0.113.7" });
    expect(recorded.after).toMatchObject({ kind: "drawn", documentSha256: demo.document.sha256, consentGiven: true, imageSha256: expect.any(String) });
  });

  it("a retry of the same request returns the existing record with 200 and creates nothing", async () => {
    const before = await signerSideCounts(testDb.db, demo.id);
    const res = await sign("signer@demo.local", demo.id, demo.document.id, typed());
    expect(res.status).toBe(200);
    expect(res.body).toEqual(first);
    expect(await signerSideCounts(testDb.db, demo.id)).toEqual(before);
  });

  it("the co-signer's signature completes the package, once, with a valid chain", async () => {
    const res = await sign("cosigner@demo.local", demo.id, demo.document.id, typed({ text: "Casey Cosigner" }));
    expect(res.status).toBe(201);
    expect(ESignature.parse(res.body)).toMatchObject({ kind: "typed", typedText: "Casey Cosigner", typedFont: "caveat" });
    const after = await packageStatus(demo.id);
    expect(after.status).toBe("completed");
    expect(after.completedAt).not.toBeNull();
    const entries = await auditEntriesFor(testDb.db, demo.id);
    expect(entries.filter((e) => e.action === "signing.completed")).toHaveLength(1);
    expect(await verifyAuditChain(testDb.db, { packageId: demo.id })).toEqual({ verified: true, brokenAt: null });
    // The creator and both signers are told it is complete, one job each.
    const done = (await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"))).filter((j) =>
      j.idempotencyKey?.startsWith(`signing-completed:${demo.id}:`),
    );
    expect((await Promise.all(done.map((j) => emailJobRecipient(testDb.db, j)))).sort()).toEqual(["cosigner@demo.local", "manager@demo.local", "signer@demo.local"]);
    for (const to of ["cosigner@demo.local", "manager@demo.local", "signer@demo.local"]) {
      // The creator opens the package page; each signer gets a link of their own (no account needed).
      const manager = to === "manager@demo.local";
      const delivered = (await deliveredMailsTo(testDb.db, to)).filter((m) => m.subject.startsWith("Completed:"));
      expect(delivered).toHaveLength(1);
      expect(delivered[0]).toMatchObject({
        subject: "Completed: Retail installment contract — Sam Signer",
        text: expect.stringContaining(manager ? `/signings/${demo.id}` : "/access/"),
      });
      if (!manager) expect(delivered[0]!.text).not.toContain(`/signings/${demo.id}`);
    }
    const replay = await sign("signer@demo.local", demo.id, demo.document.id, drawn());
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first);
  });

  it.each(["manager@demo.local", "owner@demo.local", "admin@demo.local", "manager@other.local"])("%s is not a signer: 404", async (email) => {
    const before = await signerSideCounts(testDb.db, demo.id);
    const res = await sign(email, demo.id, demo.document.id, drawn());
    expect(res.status).toBe(404);
    ErrorBody.parse(res.body);
    expect(await signerSideCounts(testDb.db, demo.id)).toEqual(before);
  });
});

describe("Idempotency-Key", () => {
  it("the same key returns the same record; reusing it for another document is 409", async () => {
    const email = unique("idem");
    const p = await pkg([{ email }], { documentCount: 2 });
    const headers = { "idempotency-key": "client-retry-1" };
    const created = await sign(email, p.id, p.documents[0]!.id, drawn(), headers);
    expect(created.status).toBe(201);
    expect(ESignature.parse(created.body).idempotencyKey).toBe("client-retry-1");
    const before = await signerSideCounts(testDb.db, p.id);
    const again = await sign(email, p.id, p.documents[0]!.id, drawn(), headers);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(created.body);
    const misuse = await sign(email, p.id, p.documents[1]!.id, drawn(), headers);
    expect(misuse.status).toBe(409);
    ErrorBody.parse(misuse.body);
    expect(await signerSideCounts(testDb.db, p.id)).toEqual(before);
  });

  it("400 for a malformed key", async () => {
    const email = unique("idem-bad");
    const p = await pkg([{ email }]);
    const res = await sign(email, p.id, p.documents[0]!.id, drawn(), { "idempotency-key": "has space" });
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
  });
});

describe("validation: 400, nothing changes", () => {
  let p: FixturePackage;
  let email: string;
  beforeAll(async () => {
    email = unique("validator");
    p = await pkg([{ email }]);
  });

  const oversized = `data:image/png;base64,${Buffer.concat([Buffer.from(pngDataUrl().slice(22), "base64"), Buffer.alloc(210 * 1024)]).toString("base64")}`;
  const gif = `data:image/png;base64,${Buffer.from("GIF89a\x01\x00\x01\x00\x00\x00\x00;".padEnd(40, "\0")).toString("base64")}`;
  const cases: [string, unknown][] = [
    ["consent false", drawn({ consent: false })],
    ["consent missing", { kind: "drawn", imageDataUrl: pngDataUrl() }],
    ["consent as a string", drawn({ consent: "true" })],
    ["kind missing", { imageDataUrl: pngDataUrl(), consent: true }],
    ["unknown kind", { kind: "stamp", consent: true }],
    ["jpeg data URL", drawn({ imageDataUrl: "data:image/jpeg;base64,/9j/4AAQSkZJRg==" })],
    ["not base64", drawn({ imageDataUrl: "data:image/png;base64,@@@@" })],
    ["empty image", drawn({ imageDataUrl: "data:image/png;base64," })],
    ["GIF bytes labelled PNG", drawn({ imageDataUrl: gif })],
    ["image over 200 KiB", drawn({ imageDataUrl: oversized })],
    ["http URL instead of data URL", drawn({ imageDataUrl: "https://example.com/sig.png" })],
    ["typed text empty", typed({ text: "   " })],
    ["typed text too long", typed({ text: "x".repeat(201) })],
    ["font not allowed", typed({ font: "comic-sans" })],
    ["typed fields on drawn", drawn({ text: "x" })],
    ["unknown field", drawn({ extra: 1 })],
    ["malformed documentSha256", drawn({ documentSha256: "abc" })],
    ["array body", [drawn()]],
    ["null body", null],
  ];
  it.each(cases)("%s", async (_, body) => {
    const before = await signerSideCounts(testDb.db, p.id);
    const res = await sign(email, p.id, p.documents[0]!.id, body);
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
    expect(await signerSideCounts(testDb.db, p.id)).toEqual(before);
  });

  it("names consent in the message", async () => {
    const res = await sign(email, p.id, p.documents[0]!.id, drawn({ consent: false }));
    expect(ErrorBody.parse(res.body).error).toMatch(/consent/);
  });

  it("malformed JSON and a non-JSON content type", async () => {
    for (const [body, contentType] of [["{bad", "application/json"], ['{"kind":"typed"}', "text/plain"]]) {
      const res = await callApi(`${BASE}/${p.id}/documents/${p.documents[0]!.id}/esignatures`, {
        method: "POST",
        token: await token(email),
        headers: { "content-type": contentType! },
        body,
      });
      expect(res.status).toBe(400);
      ErrorBody.parse(res.body);
    }
  });
});

describe("409 and 404", () => {
  it("409 when the document changed since it was viewed", async () => {
    const email = unique("changed");
    const p = await pkg([{ email }]);
    const before = await signerSideCounts(testDb.db, p.id);
    const res = await sign(email, p.id, p.documents[0]!.id, drawn({ documentSha256: "0".repeat(64) }));
    expect(res.status).toBe(409);
    expect(ErrorBody.parse(res.body).error).toMatch(/document changed/i);
    expect(ErrorBody.parse(res.body).reason).toBe("document_changed");
    expect(await signerSideCounts(testDb.db, p.id)).toEqual(before);
    const upper = await sign(email, p.id, p.documents[0]!.id, drawn({ documentSha256: p.documents[0]!.sha256.toUpperCase() }));
    expect(upper.status).toBe(201);
  });

  it.each(["draft", "completed", "cancelled", "declined", "expired"] as const)("409 on a %s package", async (status) => {
    const email = unique(`closed-${status}`);
    const p = await pkg([{ email }], { status });
    const before = await signerSideCounts(testDb.db, p.id);
    const res = await sign(email, p.id, p.documents[0]!.id, drawn());
    expect(res.status).toBe(409);
    // A draft has nothing to sign yet; every other state is closed to signing.
    expect(ErrorBody.parse(res.body).reason).toBe(status === "draft" ? undefined : "package_closed");
    expect(await signerSideCounts(testDb.db, p.id)).toEqual(before);
  });

  it("409 once the package's deadline has passed, even before the expiry sweep", async () => {
    const email = unique("late");
    const p = await pkg([{ email }]);
    await testDb.db.update(signingPackages).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(signingPackages.id, p.id));
    const before = await signerSideCounts(testDb.db, p.id);
    const res = await sign(email, p.id, p.documents[0]!.id, drawn());
    expect(res.status).toBe(409);
    expect(ErrorBody.parse(res.body).error).toMatch(/expired/);
    expect(ErrorBody.parse(res.body).reason).toBe("package_closed");
    expect(await signerSideCounts(testDb.db, p.id)).toEqual(before);
  });

  it("409 out of routing order", async () => {
    const [a, b] = [unique("route-a"), unique("route-b")];
    const p = await pkg([{ email: a }, { email: b, routingOrder: 2 }]);
    const before = await signerSideCounts(testDb.db, p.id);
    const res = await sign(b, p.id, p.documents[0]!.id, drawn());
    expect(res.status).toBe(409);
    expect(ErrorBody.parse(res.body).error).toMatch(/routing order/);
    expect(ErrorBody.parse(res.body).reason).toBe("out_of_turn");
    expect(await signerSideCounts(testDb.db, p.id)).toEqual(before);
  });

  it("404 for a request that is not mine, a document of another package, malformed ids", async () => {
    const [a, b] = [unique("mine-a"), unique("mine-b")];
    const p = await pkg([{ email: a }, { email: b }], { documentCount: 2 });
    await testDb.db.delete(signatureRequests).where(eq(signatureRequests.id, p.requests.get(`${b}:1`)!));
    const other = await pkg([{ email: unique("stranger") }]);
    const before = await signerSideCounts(testDb.db, p.id);
    const attempts: [string, string][] = [
      [p.id, p.documents[1]!.id],
      [p.id, other.documents[0]!.id],
      [other.id, other.documents[0]!.id],
      [p.id, "nope"],
      ["nope", p.documents[0]!.id],
    ];
    for (const [packageId, documentId] of attempts) {
      const res = await sign(b, packageId, documentId, drawn());
      expect(res.status).toBe(404);
      ErrorBody.parse(res.body);
    }
    expect(await signerSideCounts(testDb.db, p.id)).toEqual(before);
  });

  it("401 before validation", async () => {
    const res = await callApi(`${BASE}/x/documents/y/esignatures`, { method: "POST", json: { nonsense: true } });
    expect(res.status).toBe(401);
  });
});

describe("routing groups", () => {
  it("notifies the next group when the current one is complete, and completes after the last", async () => {
    const [a, b, c, d] = [unique("g1"), unique("g2b"), unique("g2c"), unique("g3")];
    const p = await pkg([{ email: a }, { email: b, routingOrder: 2 }, { email: c, routingOrder: 2 }, { email: d, routingOrder: 5 }], {
      documentCount: 2,
    });
    const statuses = async () =>
      Object.fromEntries(
        (await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, p.id))).map((s) => [s.email, s.status]),
      );
    const inviteJobs = async () =>
      (
        await Promise.all(
          (await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email")))
            .filter((j) => j.idempotencyKey?.startsWith(`signing-invite:${p.id}:`))
            .map((j) => emailJobRecipient(testDb.db, j)),
        )
      ).sort();

    expect((await sign(a, p.id, p.documents[0]!.id, drawn())).status).toBe(201);
    expect(await statuses()).toMatchObject({ [a]: "notified", [b]: "pending", [c]: "pending" });
    expect((await packageStatus(p.id)).status).toBe("in_progress");
    expect((await sign(a, p.id, p.documents[1]!.id, drawn())).status).toBe(201);
    expect(await statuses()).toMatchObject({ [a]: "signed", [b]: "notified", [c]: "notified", [d]: "pending" });
    // a was invited when the package was sent; b and c once a had signed everything.
    expect(await inviteJobs()).toEqual([a, b, c].sort());

    expect((await sign(d, p.id, p.documents[0]!.id, drawn())).status).toBe(409);
    for (const doc of p.documents) expect((await sign(b, p.id, doc.id, typed())).status).toBe(201);
    expect(await statuses()).toMatchObject({ [b]: "signed", [c]: "notified", [d]: "pending" });
    for (const doc of p.documents) expect((await sign(c, p.id, doc.id, typed())).status).toBe(201);
    expect(await statuses()).toMatchObject({ [c]: "signed", [d]: "notified" });
    expect(await inviteJobs()).toEqual([a, b, c, d].sort());
    expect((await sign(d, p.id, p.documents[0]!.id, drawn())).status).toBe(201);
    expect((await packageStatus(p.id)).status).toBe("in_progress");
    expect((await sign(d, p.id, p.documents[1]!.id, drawn())).status).toBe(201);
    expect((await packageStatus(p.id)).status).toBe("completed");
    const actions = (await auditEntriesFor(testDb.db, p.id)).map((e) => e.action);
    expect(actions.filter((x) => x === "signing.completed")).toHaveLength(1);
    // One per signer: a at send, then b, c and d as their groups came up.
    expect(actions.filter((x) => x === "signer.notified")).toHaveLength(4);
    expect(await verifyAuditChain(testDb.db, { packageId: p.id })).toEqual({ verified: true, brokenAt: null });
  });

  it("optional requests do not hold up completion", async () => {
    const [a, b] = [unique("req-a"), unique("opt-b")];
    const p = await pkg([{ email: a }, { email: b }]);
    await testDb.db.update(signatureRequests).set({ required: false }).where(eq(signatureRequests.id, p.requests.get(`${b}:0`)!));
    expect((await sign(a, p.id, p.documents[0]!.id, drawn())).status).toBe(201);
    expect((await packageStatus(p.id)).status).toBe("completed");
  });
});

describe("vault event outbox", () => {
  it("enqueues deliver-vault-event with exactly the six fields in the signing transaction", async () => {
    setEnvForTests({ VAULT_WEBHOOK_URL: "http://127.0.0.1:9/vault" });
    const email = unique("vault");
    const p = await pkg([{ email }, { email: unique("vault-other") }]);
    const res = await sign(email, p.id, p.documents[0]!.id, drawn());
    expect(res.status).toBe(201);
    const record = ESignature.parse(res.body);
    const [job] = await testDb.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.name, "deliver-vault-event"), eq(jobs.idempotencyKey, record.id)));
    expect(job).toBeDefined();
    // The job's payload: the e-signature, which attempt (the first), and the vault's event of six fields.
    expect(job!.payload).toEqual({
      eSignatureId: record.id,
      attempt: 1,
      event: {
        type: "signer_document_signed",
        signingOrganizationId: String(world.austin.organizationId),
        signingId: p.id,
        documentId: p.documents[0]!.id,
        authUserId: record.authUserId,
        firstESign: true,
      },
    });
    const replay = await sign(email, p.id, p.documents[0]!.id, drawn());
    expect(replay.status).toBe(200);
    expect(await testDb.db.select().from(jobs).where(eq(jobs.name, "deliver-vault-event"))).toHaveLength(1);
  });

  it("enqueues nothing when VAULT_WEBHOOK_URL is unset", async () => {
    const email = unique("novault");
    const p = await pkg([{ email }]);
    const before = (await testDb.db.select().from(jobs).where(eq(jobs.name, "deliver-vault-event"))).length;
    expect((await sign(email, p.id, p.documents[0]!.id, drawn())).status).toBe(201);
    expect(await testDb.db.select().from(jobs).where(eq(jobs.name, "deliver-vault-event"))).toHaveLength(before);
  });
});

describe("concurrency", () => {
  it("two simultaneous signatures on the same request create one record", async () => {
    const email = unique("race");
    const p = await pkg([{ email }, { email: unique("race-other") }]);
    const results = await Promise.all([
      sign(email, p.id, p.documents[0]!.id, drawn()),
      sign(email, p.id, p.documents[0]!.id, typed()),
      sign(email, p.id, p.documents[0]!.id, drawn(), { "idempotency-key": "race-key" }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    const ids = new Set(results.map((r) => ESignature.parse(r.body).id));
    expect(ids.size).toBe(1);
    expect(await testDb.db.select().from(eSignatures).where(eq(eSignatures.packageId, p.id))).toHaveLength(1);
    expect((await auditEntriesFor(testDb.db, p.id)).filter((e) => e.action === "esignature.recorded")).toHaveLength(1);
  });

  it("the last two signers signing at the same moment complete the package exactly once", async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b] = [unique("last-a"), unique("last-b")];
      const p = await pkg([{ email: a }, { email: b }]);
      const results = await Promise.all([sign(a, p.id, p.documents[0]!.id, drawn()), sign(b, p.id, p.documents[0]!.id, typed())]);
      expect(results.map((r) => r.status)).toEqual([201, 201]);
      const after = await packageStatus(p.id);
      expect(after.status).toBe("completed");
      const entries = await auditEntriesFor(testDb.db, p.id);
      expect(entries.filter((e) => e.action === "signing.completed")).toHaveLength(1);
      expect(entries.filter((e) => e.action === "signing.in_progress")).toHaveLength(1);
      expect(await verifyAuditChain(testDb.db, { packageId: p.id })).toEqual({ verified: true, brokenAt: null });
    }
  });
});

describe("GET /v1/signing/signer/esignatures", () => {
  it("lists only my records, newest first, paginated", async () => {
    const email = unique("lister");
    const p = await pkg([{ email }], { documentCount: 3 });
    const made: string[] = [];
    for (const doc of p.documents) made.push(ESignature.parse((await sign(email, p.id, doc.id, drawn())).body).id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await callApi(`/v1/signing/signer/esignatures?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token: await token(email) });
      expect(res.status).toBe(200);
      const page = ESignaturePage.parse(res.body);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(made.reverse());
    const managers = await callApi("/v1/signing/signer/esignatures", { token: await token("manager@demo.local") });
    expect(ESignaturePage.parse(managers.body).data).toEqual([]);
    const bad = await callApi("/v1/signing/signer/esignatures?cursor=%%%", { token: await token(email) });
    expect(bad.status).toBe(400);
  });
});

describe("malformed input never produces a 5xx", () => {
  it("arbitrary bodies, ids and headers on the e-signature endpoint", async () => {
    const email = unique("fuzz");
    const p = await pkg([{ email }]);
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          kind: fc.oneof(fc.constantFrom("drawn", "typed"), fc.string()),
          imageDataUrl: fc.oneof(fc.string(), fc.constant(pngDataUrl()), fc.base64String().map((s) => `data:image/png;base64,${s}`)),
          text: fc.oneof(fc.string(), fc.integer()),
          font: fc.oneof(fc.constantFrom("caveat", "great-vibes"), fc.string()),
          consent: fc.oneof(fc.boolean(), fc.jsonValue()),
          documentSha256: fc.oneof(fc.string(), fc.stringMatching(/^[0-9a-f]{64}$/)),
        },
        { requiredKeys: [] },
      ),
    );
    const id = fc.oneof(fc.constant(p.id), fc.uuid(), fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent));
    const docId = fc.oneof(fc.constant(p.documents[0]!.id), fc.uuid(), fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent));
    const key = fc.option(fc.string({ maxLength: 300 }).filter((s) => /^[\x20-\x7e]*$/.test(s)), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(body, id, docId, key, async (b, pid, did, k) => {
        const res = await sign(email, pid, did, b, k === undefined ? {} : { "idempotency-key": k });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(ErrorBody.safeParse(res.body).success, JSON.stringify(res.body)).toBe(true);
      }),
      { numRuns: 120 },
    );
  });

  it("arbitrary ids on the read endpoints", async () => {
    const segment = fc.oneof(fc.uuid(), fc.string({ minLength: 1, maxLength: 60 }).map(encodeURIComponent));
    await fc.assert(
      fc.asyncProperty(segment, segment, fc.string({ maxLength: 60 }), async (id, docId, cursor) => {
        for (const path of [
          `${BASE}/${id}`,
          `${BASE}/${id}/documents/${docId}/file`,
          `${BASE}?cursor=${encodeURIComponent(cursor)}`,
          `/v1/signing/manager/signings/${id}/audit?cursor=${encodeURIComponent(cursor)}`,
        ]) {
          const res = await callApi(path, { token: await token("signer@demo.local") });
          expect(res.status).toBeLessThan(500);
        }
      }),
      { numRuns: 60 },
    );
  });
});
