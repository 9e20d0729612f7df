import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageSigners, signingPackages } from "@/db/schema";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor, createUser } from "../helpers/fixtures";
import { as, BASE, createDraft, loadManagerWorld, SignerJson, PACKAGE_CHILD_ROLE_MATRIX } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";
import { z } from "zod";

const signersOf = (id: string) => `${BASE}/signings/${id}/signers`;
const SignerList = z.strictObject({ data: z.array(SignerJson) });

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

const signerRows = (id: string) => testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));

async function addSigner(email: string, id: string, body: unknown) {
  return as(email, signersOf(id), { method: "POST", json: body });
}

describe("signers of a draft", () => {
  it("adds a signer (201), links the user by email case-insensitively, lists in routing order", async () => {
    await createUser(testDb.db, "Mixed.Case@Example.com");
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id });
    const second = await addSigner("manager@demo.local", id, { name: "Second", email: "second@example.com", routingOrder: 2 });
    const first = await addSigner("manager@demo.local", id, { name: "Mixed", email: "mixed.case@example.COM", role: "co_signer" });
    expect(second.status).toBe(201);
    expect(first.status).toBe(201);
    const created = SignerJson.parse(first.body);
    expect(created).toMatchObject({ signingId: id, role: "co_signer", routingOrder: 1, status: "pending" });
    expect(created.userId).not.toBeNull();
    expect(SignerJson.parse(second.body).userId).toBeNull();

    const list = await as("manager@demo.local", signersOf(id));
    expect(list.status).toBe(200);
    expect(SignerList.parse(list.body).data.map((s) => s.name)).toEqual(["Mixed", "Second"]);
    const entries = await auditEntriesFor(testDb.db, id);
    expect(entries.filter((e) => e.action === "signer.added")).toHaveLength(2);
  });

  it("409 for an email already on the package, in any case; nothing added", async () => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id, signers: [{ name: "A", email: "dup@example.com" }] });
    const res = await addSigner("manager@demo.local", id, { name: "B", email: "DUP@example.com" });
    expect(res.status).toBe(409);
    ErrorBody.parse(res.body);
    expect(await signerRows(id)).toHaveLength(1);
  });

  it("updates a signer (200) with before/after audit; a changed email re-links the user", async () => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id, signers: [{ name: "A", email: "nobody@example.com" }] });
    const [signer] = await signerRows(id);
    const res = await as("manager@demo.local", `${signersOf(id)}/${signer!.id}`, {
      method: "PATCH",
      json: { email: "cosigner@demo.local", name: "Casey", routingOrder: 3, role: "co_signer" },
    });
    expect(res.status).toBe(200);
    const updated = SignerJson.parse(res.body);
    expect(updated).toMatchObject({ email: "cosigner@demo.local", name: "Casey", routingOrder: 3, role: "co_signer" });
    expect(updated.userId).not.toBeNull();
    const entry = (await auditEntriesFor(testDb.db, id)).at(-1)!;
    expect(entry).toMatchObject({ action: "signer.updated", before: expect.objectContaining({ email: "nobody@example.com" }), after: expect.objectContaining({ email: "cosigner@demo.local" }) });
  });

  it("409 when an update would duplicate another signer's email", async () => {
    const id = await createDraft("manager@demo.local", {
      locationId: world.austin.id,
      signers: [
        { name: "A", email: "a1@example.com" },
        { name: "B", email: "b1@example.com" },
      ],
    });
    const rows = await signerRows(id);
    const b = rows.find((r) => r.email === "b1@example.com")!;
    const res = await as("manager@demo.local", `${signersOf(id)}/${b.id}`, { method: "PATCH", json: { email: "A1@example.com" } });
    expect(res.status).toBe(409);
    expect((await signerRows(id)).find((r) => r.id === b.id)!.email).toBe("b1@example.com");
  });

  it("removes a signer: 204, empty body", async () => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id, signers: [{ name: "A", email: "gone@example.com" }] });
    const [signer] = await signerRows(id);
    const res = await as("manager@demo.local", `${signersOf(id)}/${signer!.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await signerRows(id)).toEqual([]);
    expect((await auditEntriesFor(testDb.db, id)).at(-1)!.action).toBe("signer.removed");
  });

  it("409 for every change once the package is sent; listing still works", async () => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id, signers: [{ name: "A", email: "frozen@example.com" }] });
    await testDb.db.update(signingPackages).set({ status: "sent" }).where(eq(signingPackages.id, id));
    const [signer] = await signerRows(id);
    const add = await addSigner("manager@demo.local", id, { name: "B", email: "late@example.com" });
    const patch = await as("manager@demo.local", `${signersOf(id)}/${signer!.id}`, { method: "PATCH", json: { name: "X" } });
    const remove = await as("manager@demo.local", `${signersOf(id)}/${signer!.id}`, { method: "DELETE" });
    for (const res of [add, patch, remove]) {
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: "Only a draft signing package can change its signers; this one is sent." });
    }
    expect(await signerRows(id)).toHaveLength(1);
    expect((await as("manager@demo.local", signersOf(id))).status).toBe(200);
  });

  it.each([
    ["missing email", { name: "A" }],
    ["bad email", { name: "A", email: "no-at-sign" }],
    ["empty name", { name: "", email: "a@example.com" }],
    ["bad role", { name: "A", email: "a@example.com", role: "witness" }],
    ["fractional routing order", { name: "A", email: "a@example.com", routingOrder: 1.5 }],
    ["unknown field", { name: "A", email: "a@example.com", phone: "1" }],
    ["array", [{ name: "A", email: "a@example.com" }]],
  ])("add: 400 for %s, nothing added", async (_, body) => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id });
    const res = await addSigner("manager@demo.local", id, body);
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
    expect(await signerRows(id)).toEqual([]);
  });

  it("update: 400 for an empty body", async () => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id, signers: [{ name: "A", email: "e@example.com" }] });
    const [signer] = await signerRows(id);
    const res = await as("manager@demo.local", `${signersOf(id)}/${signer!.id}`, { method: "PATCH", json: {} });
    expect(res.status).toBe(400);
  });

  it("404 for a signer of another package, a missing or malformed signer id", async () => {
    const a = await createDraft("manager@demo.local", { locationId: world.austin.id, signers: [{ name: "A", email: "x@example.com" }] });
    const b = await createDraft("manager@demo.local", { locationId: world.austin.id });
    const [signer] = await signerRows(a);
    for (const signerId of [signer!.id, "01935f4e-8b1c-7d2a-9f00-1a2b3c4d5e6f", "nope"]) {
      const patch = await as("manager@demo.local", `${signersOf(b)}/${signerId}`, { method: "PATCH", json: { name: "Z" } });
      const remove = await as("manager@demo.local", `${signersOf(b)}/${signerId}`, { method: "DELETE" });
      expect(patch.status).toBe(404);
      expect(remove.status).toBe(404);
      ErrorBody.parse(patch.body);
    }
    expect(await signerRows(a)).toHaveLength(1);
  });

  describe("role matrix", () => {
    it.each(PACKAGE_CHILD_ROLE_MATRIX)("%s on a %s package: list %i, add %i", async (email, where, listStatus, addStatus) => {
      const id = await createDraft(where === "tulsa" ? "manager@other.local" : "manager@demo.local", { locationId: world[where].id });
      const list = await as(email, signersOf(id));
      expect(list.status).toBe(listStatus);
      const add = await addSigner(email, id, { name: "Matrix", email: "matrix@example.com" });
      expect(add.status).toBe(addStatus);
      if (addStatus !== 201) {
        ErrorBody.parse(add.body);
        expect(await signerRows(id)).toEqual([]);
      }
    });
  });
});
