import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { createSigning } from "@/lib/signings/create-signing";
import { createTestDb, type TestDb } from "../helpers/db";
import { countPackages } from "../helpers/fixtures";
import { as, BASE, createDraft, loadManagerWorld } from "../helpers/manager";

// Cross-field rules live in the request schemas: the 400 text is the validation hook's
// ("Invalid request body. <path>: <message>"); domain functions never speak of request bodies.

const PATH = `${BASE}/signings`;

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

describe("request validation owns cross-field rules", () => {
  it("duplicate signer emails (case-insensitive) name the repeated entry", async () => {
    const res = await as("manager@demo.local", PATH, {
      method: "POST",
      json: { locationId: world.austin.id, signers: [{ name: "A", email: "a@x.io" }, { name: "B", email: "A@x.io" }] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Invalid request body. signers.1.email: each email may appear only once" });
  });

  it("a templateRole without templateId names the signer's templateRole", async () => {
    const res = await as("manager@demo.local", PATH, {
      method: "POST",
      json: { locationId: world.austin.id, signers: [{ name: "A", email: "a@x.io", templateRole: "buyer" }] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Invalid request body. signers.0.templateRole: needs a templateId" });
  });

  it("a past expiry is refused by validation", async () => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id, title: "Expiry" });
    const res = await as("manager@demo.local", `${PATH}/${id}`, { method: "PATCH", json: { expiresAt: "2001-01-01T00:00:00Z" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Invalid request body. expiresAt: must be in the future" });
  });

  it("a custom outreach message without message or body is a 400 before the document is looked up", async () => {
    const res = await as("manager@demo.local", "/v1/documents/01934b7e-8f3a-7c2d-9e4f-1a2b3c4d5e6f/outreach", {
      method: "POST",
      json: { recipientKind: "borrower", purpose: "custom" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "Invalid request body. message: required for a custom message (or give a body)" });
  });
});

describe("createSigning called directly (no request schema) keeps its invariants in domain words", () => {
  const principal = () => resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));

  it("duplicate signer emails are a conflict, and nothing is created", async () => {
    const before = await countPackages(testDb.db);
    const attempt = createSigning(testDb.db, {
      principal: await principal(),
      locationId: world.austin.id,
      signers: [
        { name: "A", email: "dup@x.io" },
        { name: "B", email: "DUP@x.io" },
      ],
    });
    await expect(attempt).rejects.toMatchObject({ code: "conflict", message: "A signing package lists each signer's email once." });
    expect(await countPackages(testDb.db)).toBe(before);
  });

  it("a template role without a template is a bad request that speaks of the package", async () => {
    const attempt = createSigning(testDb.db, {
      principal: await principal(),
      locationId: world.austin.id,
      signers: [{ name: "A", email: "role@x.io", templateRole: "buyer" }],
    });
    await expect(attempt).rejects.toMatchObject({
      code: "bad_request",
      message: 'Signer role@x.io names the template role "buyer", but the package has no template.',
    });
  });
});
