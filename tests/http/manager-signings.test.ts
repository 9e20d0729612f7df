import { and, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { jobs, packageDocuments, packageSigners, signatureRequests, signingPackages } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { deliveredMailsTo, emailJobRecipient } from "../helpers/mail";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor, countPackages } from "../helpers/fixtures";
import {
  as,
  BASE,
  createDraft,
  createReadyDraft,
  loadManagerWorld,
  SigningDetailJson,
  SigningJson,
  uploadPdf,
} from "../helpers/manager";
import { ErrorBody, pageOf } from "../helpers/schemas";

const PATH = `${BASE}/signings`;
const SigningPage = pageOf(SigningJson);

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

async function packageRow(id: string) {
  const [row] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, id));
  return row;
}

async function setStatus(id: string, status: "sent" | "in_progress" | "completed" | "declined" | "expired" | "cancelled") {
  await testDb.db.update(signingPackages).set({ status }).where(eq(signingPackages.id, id));
}

describe("GET /v1/signing/manager/signings", () => {
  it("lists the caller's packages newest first, without other organizations'", async () => {
    const newest = await createDraft("manager@demo.local", { locationId: world.dallas.id, title: "Newest list entry" });
    const res = await as("manager@demo.local", `${PATH}?limit=100`);
    expect(res.status).toBe(200);
    const page = SigningPage.parse(res.body);
    expect(page.cap).toBeUndefined();
    expect(page.data[0]!.id).toBe(newest);
    expect(page.data.every((s) => s.organizationId === world.austin.organizationId)).toBe(true);
    const ids = page.data.map((s) => s.id);
    expect([...ids].sort().reverse()).toEqual(ids);
  });

  it("pages with limit and cursor without repeating or skipping", async () => {
    const all = SigningPage.parse((await as("manager@demo.local", `${PATH}?limit=100`)).body).data.map((s) => s.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await as("manager@demo.local", `${PATH}?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      const page = SigningPage.parse(res.body);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it("filters by status, location, company and text in the title or a signer's name", async () => {
    const id = await createDraft("manager@demo.local", {
      locationId: world.austin.id,
      title: "Zebra closing",
      signers: [{ name: "Quincy Quartermaine", email: "quincy@example.com" }],
    });
    const get = async (query: string) => SigningPage.parse((await as("manager@demo.local", `${PATH}?limit=100&${query}`)).body).data;
    expect((await get("status=sent")).every((s) => s.status === "sent")).toBe(true);
    expect((await get("status=sent")).length).toBeGreaterThan(0);
    expect((await get(`locationId=${world.dallas.id}`)).every((s) => s.locationId === world.dallas.id)).toBe(true);
    expect((await get(`companyId=${world.austin.companyId}`)).length).toBeGreaterThan(0);
    expect((await get(`companyId=${world.tulsa.companyId}`))).toEqual([]);
    expect((await get("q=zebra")).map((s) => s.id)).toEqual([id]);
    expect((await get("q=quarter")).map((s) => s.id)).toEqual([id]);
    expect(await get("q=%25")).toEqual([]);
    expect(await get("q=_")).toEqual([]);
  });

  it("a location-level manager sees only that location", async () => {
    await createDraft("manager@demo.local", { locationId: world.dallas.id });
    const page = SigningPage.parse((await as("branch@demo.local", `${PATH}?limit=100`)).body);
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.every((s) => s.locationId === world.austin.id)).toBe(true);
  });

  it("an admin reads every organization, capped, and the response states the cap", async () => {
    setEnvForTests({ ADMIN_READ_CAP: "3" });
    try {
      const first = SigningPage.parse((await as("admin@demo.local", `${PATH}?limit=2`)).body);
      expect(first.cap).toBe(3);
      expect(first.data).toHaveLength(2);
      const second = SigningPage.parse((await as("admin@demo.local", `${PATH}?limit=2&cursor=${first.nextCursor}`)).body);
      expect(second.data).toHaveLength(1);
      expect(second.nextCursor).toBeNull();
      // The cursor carries how many rows were served; editing it to 0 to read past the cap is refused.
      const [payload, tag] = first.nextCursor!.split(".");
      const [lastKey] = JSON.parse(Buffer.from(payload!, "base64url").toString()) as [string, number];
      const unsignedReset = Buffer.from(JSON.stringify([lastKey, 0])).toString("base64url");
      for (const cursor of [unsignedReset, `${unsignedReset}.${tag}`]) {
        const tampered = await as("admin@demo.local", `${PATH}?limit=2&cursor=${cursor}`);
        expect(tampered.status).toBe(400);
        expect(tampered.body).toEqual({ error: "Invalid cursor. Pass the nextCursor of a previous page unchanged." });
      }
      const big = SigningPage.parse((await as("admin@demo.local", `${PATH}?limit=100`)).body);
      expect(big.data).toHaveLength(3);
      expect(new Set(big.data.map((s) => s.organizationId)).size).toBeGreaterThanOrEqual(1);
    } finally {
      setEnvForTests({});
    }
    const all = SigningPage.parse((await as("admin@demo.local", `${PATH}?limit=100`)).body);
    expect(new Set(all.data.map((s) => s.organizationId))).toEqual(new Set([world.austin.organizationId, world.tulsa.organizationId]));
  });

  it.each([
    ["limit=0"],
    ["limit=101"],
    ["limit=abc"],
    ["status=bogus"],
    ["locationId=x"],
    ["cursor=not-a-cursor"],
    [`cursor=${Buffer.from('["x",0]').toString("base64url")}`],
  ])("400 for ?%s", async (query) => {
    const res = await as("manager@demo.local", `${PATH}?${query}`);
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
  });

  it("403 for signers", async () => {
    for (const email of ["signer@demo.local", "cosigner@demo.local"]) {
      const res = await as(email, PATH);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: "You do not have permission to list signing packages." });
    }
  });
});

describe("POST /v1/signing/manager/signings (extended)", () => {
  it("creates signers, links existing users case-insensitively and applies the default flow", async () => {
    const id = await createDraft("manager@demo.local", {
      locationId: world.austin.id,
      signers: [
        { name: "Sam", email: "SIGNER@demo.local", routingOrder: 1 },
        { name: "New Person", email: "new.person@example.com", role: "co_signer", routingOrder: 2 },
      ],
    });
    const detail = SigningDetailJson.parse((await as("manager@demo.local", `${PATH}/${id}`)).body);
    expect(detail.flowId).not.toBeNull();
    expect(detail.signers.map((s) => [s.email, s.role, s.routingOrder, s.userId !== null])).toEqual([
      ["SIGNER@demo.local", "signer", 1, true],
      ["new.person@example.com", "co_signer", 2, false],
    ]);
    const [entry] = await auditEntriesFor(testDb.db, id);
    expect(entry!.action).toBe("signing.created");
    expect((entry!.after as { signers: unknown[] }).signers).toHaveLength(2);
  });

  it("copies a template's documents and turns named roles into signers", async () => {
    const template = await as("owner@demo.local", `${BASE}/templates`, {
      method: "POST",
      json: {
        organizationId: world.austin.organizationId,
        name: "RIC closing",
        roles: [
          { key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 },
          { key: "cobuyer", label: "Co-buyer", role: "co_signer", routingOrder: 2 },
        ],
      },
    });
    expect(template.status).toBe(201);
    const templateId = (template.body as { id: string }).id;
    const upload = await as("owner@demo.local", `${BASE}/templates/${templateId}/documents?name=RIC.pdf`, {
      method: "POST",
      body: (await (await import("../helpers/manager")).samplePdf()) as Uint8Array<ArrayBuffer>,
      headers: { "content-type": "application/pdf" },
    });
    expect(upload.status).toBe(201);

    const id = await createDraft("manager@demo.local", {
      locationId: world.austin.id,
      templateId,
      signers: [{ name: "Bea Buyer", email: "bea@example.com", templateRole: "cobuyer" }],
    });
    const detail = SigningDetailJson.parse((await as("manager@demo.local", `${PATH}/${id}`)).body);
    expect(detail).toMatchObject({ templateId, title: "RIC closing" });
    expect(detail.documents.map((d) => d.name)).toEqual(["RIC.pdf"]);
    expect(detail.signers).toHaveLength(1);
    expect(detail.signers[0]).toMatchObject({ email: "bea@example.com", role: "co_signer", routingOrder: 2 });

    const unknownRole = await as("manager@demo.local", PATH, {
      method: "POST",
      json: { locationId: world.austin.id, templateId, signers: [{ name: "X", email: "x@example.com", templateRole: "nope" }] },
    });
    expect(unknownRole.status).toBe(400);
    const foreign = await as("manager@other.local", PATH, { method: "POST", json: { locationId: world.tulsa.id, templateId } });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: `Template ${templateId} not found.` });
  });

  it("attaches inline base64 PDFs after the template's, with their hash and page count", async () => {
    const { samplePdf } = await import("../helpers/manager");
    const pdf = await samplePdf();
    const id = await createDraft("manager@demo.local", {
      locationId: world.austin.id,
      documents: [
        { name: "Contract.pdf", contentBase64: Buffer.from(pdf).toString("base64") },
        { name: "Disclosure.pdf", contentBase64: Buffer.from(pdf).toString("base64") },
      ],
    });
    const detail = SigningDetailJson.parse((await as("manager@demo.local", `${PATH}/${id}`)).body);
    expect(detail.documents.map((d) => d.name)).toEqual(["Contract.pdf", "Disclosure.pdf"]);
    const sha256 = (await import("node:crypto")).createHash("sha256").update(pdf).digest("hex");
    expect(detail.documents.every((d) => d.sha256 === sha256 && d.pageCount >= 1)).toBe(true);
    const [entry] = await auditEntriesFor(testDb.db, id);
    expect((entry!.after as { documentIds: string[] }).documentIds).toEqual(detail.documents.map((d) => d.id));
  });

  it.each<[string, () => unknown]>([
    ["a document that is not a PDF", () => ({ locationId: world.austin.id, documents: [{ name: "x.pdf", contentBase64: Buffer.from("hello, not a pdf").toString("base64") }] })],
    ["a document that is not base64", () => ({ locationId: world.austin.id, documents: [{ name: "x.pdf", contentBase64: "%%%not base64%%%" }] })],
    ["a document without a name", () => ({ locationId: world.austin.id, documents: [{ contentBase64: "JVBERi0=" }] })],
  ])("400 for %s, nothing created (not even the package)", async (_, body) => {
    const before = await countPackages(testDb.db);
    const documentsBefore = await testDb.db.$count(packageDocuments);
    const res = await as("manager@demo.local", PATH, { method: "POST", json: body() });
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
    expect(await countPackages(testDb.db)).toBe(before);
    expect(await testDb.db.$count(packageDocuments)).toBe(documentsBefore);
  });

  it.each<[string, () => unknown]>([
    ["duplicate signer emails", () => ({ locationId: world.austin.id, signers: [{ name: "A", email: "a@x.io" }, { name: "B", email: "A@x.io" }] })],
    ["templateRole without templateId", () => ({ locationId: world.austin.id, signers: [{ name: "A", email: "a@x.io", templateRole: "buyer" }] })],
    ["invalid signer email", () => ({ locationId: world.austin.id, signers: [{ name: "A", email: "nope" }] })],
    ["invalid signer role", () => ({ locationId: world.austin.id, signers: [{ name: "A", email: "a@x.io", role: "boss" }] })],
    ["zero routing order", () => ({ locationId: world.austin.id, signers: [{ name: "A", email: "a@x.io", routingOrder: 0 }] })],
    ["malformed templateId", () => ({ locationId: world.austin.id, templateId: "abc" })],
  ])("400 for %s, nothing created", async (_, body) => {
    const before = await countPackages(testDb.db);
    const res = await as("manager@demo.local", PATH, { method: "POST", json: body() });
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
    expect(await countPackages(testDb.db)).toBe(before);
  });

  it("404 for a flow of another organization", async () => {
    const flows = pageOf(z.object({ id: z.string() }).loose()).parse((await as("manager@other.local", `${BASE}/flows`)).body);
    const res = await as("manager@demo.local", PATH, { method: "POST", json: { locationId: world.austin.id, flowId: flows.data[0]!.id } });
    expect(res.status).toBe(404);
    ErrorBody.parse(res.body);
  });
});

describe("GET /v1/signing/manager/signings/{id}", () => {
  it("returns the package with signers and document metadata (never the bytes)", async () => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    const res = await as("manager@demo.local", `${PATH}/${id}`);
    expect(res.status).toBe(200);
    const detail = SigningDetailJson.parse(res.body);
    expect(detail.signers).toHaveLength(1);
    expect(detail.documents).toHaveLength(1);
    expect(res.text).not.toContain('"content":');
  });

  it("404 for a missing, malformed or foreign id, with the same message shape", async () => {
    const foreignId = await createDraft("manager@other.local", { locationId: world.tulsa.id });
    const foreign = await as("manager@demo.local", `${PATH}/${foreignId}`);
    const missing = await as("manager@demo.local", `${PATH}/01935f4e-8b1c-7d2a-9f00-1a2b3c4d5e6f`);
    const malformed = await as("manager@demo.local", `${PATH}/not-a-uuid`);
    for (const res of [foreign, missing, malformed]) {
      expect(res.status).toBe(404);
      expect((res.body as { error: string }).error).toMatch(/^Signing package .+ not found\.$/);
    }
  });
});

describe("PATCH /v1/signing/manager/signings/{id}", () => {
  it("edits a draft and records before/after", async () => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id, title: "Before" });
    const expiresAt = new Date(Date.now() + 7 * 86400_000).toISOString();
    const res = await as("manager@demo.local", `${PATH}/${id}`, {
      method: "PATCH",
      json: { title: "After", message: "Please sign", expiresAt, flowId: null },
    });
    expect(res.status).toBe(200);
    expect(SigningJson.parse(res.body)).toMatchObject({ title: "After", message: "Please sign", expiresAt, flowId: null });
    const entries = await auditEntriesFor(testDb.db, id);
    expect(entries.at(-1)).toMatchObject({ action: "signing.updated", before: expect.objectContaining({ title: "Before" }), after: expect.objectContaining({ title: "After" }) });
  });

  it.each([
    ["empty body", {}],
    ["unknown field", { status: "sent" }],
    ["past expiry", { expiresAt: "2001-01-01T00:00:00Z" }],
    ["bad date", { expiresAt: "tomorrow" }],
    ["empty title", { title: " " }],
    ["bad flow id", { flowId: 3 }],
  ])("400 for %s, nothing changed", async (_, body) => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id, title: "Unchanged" });
    const res = await as("manager@demo.local", `${PATH}/${id}`, { method: "PATCH", json: body });
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
    expect((await packageRow(id))!.title).toBe("Unchanged");
  });

  it("409 once the package is sent", async () => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    expect((await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" })).status).toBe(200);
    const res = await as("manager@demo.local", `${PATH}/${id}`, { method: "PATCH", json: { title: "Too late" } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: "Only a draft signing package can be edited; this one is sent." });
  });
});

describe("DELETE /v1/signing/manager/signings/{id}", () => {
  it("deletes a draft with its signers and documents: 204, empty body", async () => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    const res = await as("manager@demo.local", `${PATH}/${id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await packageRow(id)).toBeUndefined();
    expect(await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id))).toEqual([]);
    expect((await as("manager@demo.local", `${PATH}/${id}`)).status).toBe(404);
  });

  it("409 for a package that is no longer a draft, nothing deleted", async () => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id });
    await setStatus(id, "sent");
    const res = await as("manager@demo.local", `${PATH}/${id}`, { method: "DELETE" });
    expect(res.status).toBe(409);
    ErrorBody.parse(res.body);
    expect(await packageRow(id)).toBeDefined();
  });
});

describe("POST /v1/signing/manager/signings/{id}/send", () => {
  afterEach(() => setEnvForTests({}));

  it("sends: signature requests for every signer × document, first routing group notified, one email job each", async () => {
    setEnvForTests({ APP_URL: "https://sign.example.com/" });
    const id = await createDraft("manager@demo.local", {
      locationId: world.austin.id,
      title: "Two-step closing",
      signers: [
        { name: "First A", email: "first.a@example.com", routingOrder: 1 },
        { name: "First B", email: "first.b@example.com", routingOrder: 1 },
        { name: "Later", email: "later@example.com", routingOrder: 2 },
      ],
    });
    await uploadPdf("manager@demo.local", id, "One.pdf");
    await uploadPdf("manager@demo.local", id, "Two.pdf");
    const res = await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(SigningJson.parse(res.body)).toMatchObject({ status: "sent", sentAt: expect.any(String) });

    const requests = await testDb.db.select().from(signatureRequests).where(eq(signatureRequests.packageId, id));
    expect(requests).toHaveLength(6);
    expect(requests.every((r) => r.required && r.status === "pending")).toBe(true);
    const signers = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));
    expect(Object.fromEntries(signers.map((s) => [s.email, s.status]))).toEqual({
      "first.a@example.com": "notified",
      "first.b@example.com": "notified",
      "later@example.com": "pending",
    });
    const mails = await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"));
    const ours = mails.filter((j) => j.idempotencyKey?.startsWith(`signing-invite:${id}:`));
    expect(ours).toHaveLength(2);
    expect((await Promise.all(ours.map((j) => emailJobRecipient(testDb.db, j)))).sort()).toEqual(["first.a@example.com", "first.b@example.com"]);
    for (const to of ["first.a@example.com", "first.b@example.com"]) {
      const delivered = await deliveredMailsTo(testDb.db, to);
      expect(delivered).toHaveLength(1);
      const payload = { ...delivered[0]!, html: delivered[0]!.html ?? "" };
      // Each signer's own access link (a 43-character token), never the bare package address.
      expect(payload.text).toMatch(/https:\/\/sign\.example\.com\/access\/[A-Za-z0-9_-]{43}\b/);
      expect(payload.text).not.toContain(`/signings/${id}`);
      expect(payload.subject).toBe("Please sign: Two-step closing");
      expect(payload.html).toMatch(/<a href="https:\/\/sign\.example\.com\/access\/[A-Za-z0-9_-]{43}"/);
    }
    const entries = await auditEntriesFor(testDb.db, id);
    expect(entries.at(-1)).toMatchObject({ action: "signing.sent", before: expect.objectContaining({ status: "draft" }), after: expect.objectContaining({ status: "sent", signatureRequests: 6 }) });
    // The first group is invited by the same function as later groups: one signer.notified each.
    const firstGroup = signers.filter((s) => s.routingOrder === 1).map((s) => s.id).sort();
    const notified = entries.filter((e) => e.action === "signer.notified");
    expect(notified.map((e) => e.entityId).sort()).toEqual(firstGroup);
    expect(notified.every((e) => (e.after as { status: string }).status === "notified")).toBe(true);
    expect((entries.at(-1)!.after as { notifiedSignerIds: string[] }).notifiedSignerIds.sort()).toEqual(firstGroup);
  });

  it("409 without signers or without documents, with a clear message and nothing changed", async () => {
    const noSigners = await createDraft("manager@demo.local", { locationId: world.austin.id });
    await uploadPdf("manager@demo.local", noSigners);
    const a = await as("manager@demo.local", `${PATH}/${noSigners}/send`, { method: "POST" });
    expect(a.status).toBe(409);
    expect(a.body).toEqual({ error: "A signing package needs at least one signer before it can be sent." });
    expect((await packageRow(noSigners))!.status).toBe("draft");

    const noDocuments = await createDraft("manager@demo.local", { locationId: world.austin.id, signers: [{ name: "S", email: "s@example.com" }] });
    const b = await as("manager@demo.local", `${PATH}/${noDocuments}/send`, { method: "POST" });
    expect(b.status).toBe(409);
    expect(b.body).toEqual({ error: "A signing package needs at least one document before it can be sent." });
    expect(await testDb.db.select().from(signatureRequests).where(eq(signatureRequests.packageId, noDocuments))).toEqual([]);
  });

  it("409 when sent twice; no second set of emails", async () => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    expect((await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" })).status).toBe(200);
    const again = await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "The signing package is already sent." });
    const mails = await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"));
    expect(mails.filter((j) => j.idempotencyKey?.startsWith(`signing-invite:${id}:`))).toHaveLength(1);
  });
});

describe("POST /v1/signing/manager/signings/{id}/cancel", () => {
  it("cancels with a reason, then 409 already cancelled", async () => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" });
    const res = await as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "Buyer withdrew" } });
    expect(res.status).toBe(200);
    expect(SigningJson.parse(res.body)).toMatchObject({ status: "cancelled", cancelReason: "Buyer withdrew", cancelledAt: expect.any(String) });
    const again = await as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "again" } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "The signing package is already cancelled.", reason: "package_closed" });
    const entries = await auditEntriesFor(testDb.db, id);
    expect(entries.filter((e) => e.action === "signing.cancelled")).toHaveLength(1);
    const notices = (await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"))).filter((j) =>
      j.idempotencyKey?.startsWith(`signing-cancelled:${id}:`),
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]!.payload).toMatchObject({ to: "signer@demo.local", text: expect.stringContaining("Reason: Buyer withdrew") });
  });

  it("accepts no body at all", async () => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id });
    const res = await as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST" });
    expect(res.status).toBe(200);
    expect(SigningJson.parse(res.body).cancelReason).toBeNull();
  });

  it.each(["completed", "declined", "expired"] as const)("409 for a %s package", async (status) => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id });
    await setStatus(id, status);
    const res = await as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "x" } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: `A ${status} signing package cannot become cancelled.`, reason: "package_closed" });
    expect((await packageRow(id))!.status).toBe(status);
  });

  it.each([
    ["unknown field", { reason: "x", force: true }],
    ["empty reason", { reason: "" }],
    ["non-string reason", { reason: 5 }],
    ["overlong reason", { reason: "x".repeat(1001) }],
  ])("400 for %s", async (_, body) => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id });
    const res = await as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: body });
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
    expect((await packageRow(id))!.status).toBe("draft");
  });
});

describe("POST /v1/signing/manager/signings/{id}/remind", () => {
  const Reminded = z.strictObject({ remindedSignerIds: z.array(z.uuid()), alreadyRemindedSignerIds: z.array(z.uuid()) });
  afterEach(() => setEnvForTests({}));

  it("emails the current group with the reminder template once an hour, and audits each reminder", async () => {
    setEnvForTests({ APP_URL: "https://sign.example.com" });
    const id = await createDraft("manager@demo.local", {
      locationId: world.austin.id,
      title: "Remind me",
      signers: [
        { name: "Now A", email: "now.a@example.com", routingOrder: 1 },
        { name: "Now B", email: "now.b@example.com", routingOrder: 1 },
        { name: "Later", email: "later.r@example.com", routingOrder: 2 },
      ],
    });
    await uploadPdf("manager@demo.local", id, "One.pdf");
    await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" });
    const signers = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));
    const current = signers.filter((s) => s.routingOrder === 1).map((s) => s.id).sort();

    const res = await as("manager@demo.local", `${PATH}/${id}/remind`, { method: "POST" });
    expect(res.status).toBe(200);
    const body = Reminded.parse(res.body);
    expect(body.remindedSignerIds.sort()).toEqual(current);
    expect(body.alreadyRemindedSignerIds).toEqual([]);
    const reminders = (await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"))).filter((j) =>
      j.idempotencyKey?.startsWith(`signing-reminder:${id}:`),
    );
    expect((await Promise.all(reminders.map((j) => emailJobRecipient(testDb.db, j)))).sort()).toEqual(["now.a@example.com", "now.b@example.com"]);
    for (const to of ["now.a@example.com", "now.b@example.com"]) {
      const delivered = (await deliveredMailsTo(testDb.db, to)).at(-1)!;
      const payload = { ...delivered, html: delivered.html ?? "" };
      expect(payload.subject).toBe("Reminder: please sign Remind me");
      expect(payload.text).toContain("Max Manager is still waiting for your signature");
      // A fresh access link per signer (it supersedes the invitation's).
      expect(payload.text).toMatch(/https:\/\/sign\.example\.com\/access\/[A-Za-z0-9_-]{43}\b/);
      expect(payload.html).toMatch(/<a href="https:\/\/sign\.example\.com\/access\/[A-Za-z0-9_-]{43}"/);
    }
    const audited = (await auditEntriesFor(testDb.db, id)).filter((e) => e.action === "signer.reminded");
    expect(audited.map((e) => e.entityId).sort()).toEqual(current);

    const again = await as("manager@demo.local", `${PATH}/${id}/remind`, { method: "POST" });
    expect(again.status).toBe(200);
    expect(Reminded.parse(again.body)).toEqual({ remindedSignerIds: [], alreadyRemindedSignerIds: expect.arrayContaining(current) });
    const after = (await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"))).filter((j) =>
      j.idempotencyKey?.startsWith(`signing-reminder:${id}:`),
    );
    expect(after).toHaveLength(2);
    expect((await auditEntriesFor(testDb.db, id)).filter((e) => e.action === "signer.reminded")).toHaveLength(2);
  });

  it.each(["draft", "completed", "cancelled"] as const)("409 for a %s package, nobody emailed", async (status) => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    if (status !== "draft") await setStatus(id, status);
    const res = await as("manager@demo.local", `${PATH}/${id}/remind`, { method: "POST" });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: `Only a sent or in-progress package can be reminded; this one is ${status}.` });
    const reminders = (await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"))).filter((j) =>
      j.idempotencyKey?.startsWith(`signing-reminder:${id}:`),
    );
    expect(reminders).toEqual([]);
  });

  it("404 for another organization's package, 403 for a signer", async () => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" });
    expect((await as("manager@other.local", `${PATH}/${id}/remind`, { method: "POST" })).status).toBe(404);
    expect((await as("signer@demo.local", `${PATH}/${id}/remind`, { method: "POST" })).status).toBe(403);
  });
});

describe("role matrix", () => {
  type Op = { name: string; run: (email: string, id: string) => Promise<{ status: number; body: unknown }>; ok: number; write: boolean };
  const ops: Op[] = [
    { name: "read", run: (e, id) => as(e, `${PATH}/${id}`), ok: 200, write: false },
    { name: "patch", run: (e, id) => as(e, `${PATH}/${id}`, { method: "PATCH", json: { title: "Matrix" } }), ok: 200, write: true },
    { name: "send", run: (e, id) => as(e, `${PATH}/${id}/send`, { method: "POST" }), ok: 200, write: true },
    { name: "cancel", run: (e, id) => as(e, `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "matrix" } }), ok: 200, write: true },
    { name: "delete", run: (e, id) => as(e, `${PATH}/${id}`, { method: "DELETE" }), ok: 204, write: true },
  ];
  // [caller, package location, expected outcome]
  const callers: [string, "austin" | "dallas" | "tulsa", "ok" | 403 | 404, boolean][] = [
    ["signer@demo.local", "austin", 403, true],
    ["cosigner@demo.local", "austin", 403, true],
    ["manager@demo.local", "austin", "ok", true],
    ["branch@demo.local", "austin", "ok", true],
    ["branch@demo.local", "dallas", 404, true],
    ["company@demo.local", "dallas", "ok", true],
    ["manager@other.local", "austin", 404, true],
    ["owner@demo.local", "dallas", "ok", true],
    ["admin@demo.local", "tulsa", "ok", false],
  ];
  for (const op of ops) {
    it.each(callers)(`${op.name}: %s on a %s package → %s`, async (email, where, expected, writes) => {
      const creator = where === "tulsa" ? "manager@other.local" : "manager@demo.local";
      const id = await createReadyDraft(creator, world[where].id);
      const before = await packageRow(id);
      const res = await op.run(email, id);
      const status = expected === "ok" ? (op.write && !writes ? 403 : op.ok) : expected;
      expect(res.status).toBe(status);
      if (status >= 400) {
        ErrorBody.parse(res.body);
        expect(await packageRow(id)).toEqual(before);
      }
    });
  }
});

describe("nothing reaches the database on a 4xx", () => {
  it("a signer's attempts leave no audit entries", async () => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    const before = (await auditEntriesFor(testDb.db, id)).length;
    for (const [method, path, json] of [
      ["PATCH", `${PATH}/${id}`, { title: "x" }],
      ["POST", `${PATH}/${id}/send`, undefined],
      ["POST", `${PATH}/${id}/cancel`, { reason: "x" }],
      ["DELETE", `${PATH}/${id}`, undefined],
    ] as const) {
      expect((await as("signer@demo.local", path, { method, json })).status).toBe(403);
    }
    expect(await auditEntriesFor(testDb.db, id)).toHaveLength(before);
    const docs = await testDb.db.select().from(packageDocuments).where(and(eq(packageDocuments.packageId, id)));
    expect(docs).toHaveLength(1);
  });
});
