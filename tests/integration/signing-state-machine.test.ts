import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signingPackages, signingStatusEnum, type SigningStatus } from "@/db/schema";
import { hashAuditEntry } from "@/lib/audit/record-audit-entry";
import { canTransition } from "@/lib/signings/state-machine";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor } from "../helpers/fixtures";
import { as, BASE, createReadyDraft, loadManagerWorld, uploadPdf } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";

// Walks packages through every manager-driven transition of ARCHITECTURE §5 over the HTTP API, and
// checks that every other (status × action) pair is refused with 409 and changes nothing.

const PATH = `${BASE}/signings`;
const STATUSES = signingStatusEnum.enumValues;

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

const statusOf = async (id: string) => (await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, id)))[0]?.status;

/** A package in `status`: reached through the API where the manager side can, else set directly (signer-side moves). */
async function packageIn(status: SigningStatus): Promise<string> {
  const id = await createReadyDraft("manager@demo.local", world.austin.id);
  if (status === "draft") return id;
  if (status === "cancelled") {
    expect((await as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "setup" } })).status).toBe(200);
    return id;
  }
  expect((await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" })).status).toBe(200);
  if (status !== "sent") await testDb.db.update(signingPackages).set({ status }).where(eq(signingPackages.id, id));
  return id;
}

type Action = { name: string; allowed: (from: SigningStatus) => boolean; to?: SigningStatus; ok: number; run: (id: string) => ReturnType<typeof as> };
const actions: Action[] = [
  { name: "send", allowed: (s) => canTransition(s, "sent"), to: "sent", ok: 200, run: (id) => as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" }) },
  {
    name: "cancel",
    allowed: (s) => canTransition(s, "cancelled"),
    to: "cancelled",
    ok: 200,
    run: (id) => as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "walk" } }),
  },
  { name: "edit", allowed: (s) => s === "draft", ok: 200, run: (id) => as("manager@demo.local", `${PATH}/${id}`, { method: "PATCH", json: { title: "Edited" } }) },
  { name: "delete", allowed: (s) => s === "draft", ok: 204, run: (id) => as("manager@demo.local", `${PATH}/${id}`, { method: "DELETE" }) },
  {
    name: "add signer",
    allowed: (s) => s === "draft",
    ok: 201,
    run: (id) => as("manager@demo.local", `${PATH}/${id}/signers`, { method: "POST", json: { name: "Extra", email: "extra@example.com" } }),
  },
  { name: "upload document", allowed: (s) => s === "draft", ok: 201, run: (id) => uploadPdf("manager@demo.local", id) },
];

describe("signing package state machine over the API", () => {
  it("walks draft → sent → cancelled with a verifiable audit chain", async () => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    expect(await statusOf(id)).toBe("draft");
    expect((await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" })).status).toBe(200);
    expect(await statusOf(id)).toBe("sent");
    expect((await as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "done" } })).status).toBe(200);
    expect(await statusOf(id)).toBe("cancelled");

    const entries = await auditEntriesFor(testDb.db, id);
    expect(entries.map((e) => e.action)).toEqual(["signing.created", "document.added", "signing.sent", "signing.cancelled"]);
    let prev: string | null = null;
    for (const entry of entries) {
      expect(entry.prevHash).toBe(prev);
      expect(entry.hash).toBe(hashAuditEntry({ ...entry, prevHash: prev }));
      prev = entry.hash;
    }
  });

  for (const from of STATUSES) {
    for (const action of actions) {
      const allowed = action.allowed(from);
      it(`${from} --${action.name}--> ${allowed ? (action.to ?? from) : "409"}`, async () => {
        const id = await packageIn(from);
        const auditBefore = (await auditEntriesFor(testDb.db, id)).length;
        const res = await action.run(id);
        if (allowed) {
          expect(res.status).toBe(action.ok);
          if (action.name === "delete") expect(await statusOf(id)).toBeUndefined();
          else expect(await statusOf(id)).toBe(action.to ?? from);
          // Every allowed move appends exactly one entry; a deleted draft keeps its trail.
          expect((await auditEntriesFor(testDb.db, id)).length).toBe(auditBefore + 1);
        } else {
          expect(res.status).toBe(409);
          ErrorBody.parse(res.body);
          expect(await statusOf(id)).toBe(from);
          expect(await auditEntriesFor(testDb.db, id)).toHaveLength(auditBefore);
        }
      });
    }
  }

  it("the 409 for cancelling a cancelled package says it is already cancelled (spec §3)", async () => {
    const id = await packageIn("cancelled");
    const res = await as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "again" } });
    expect(res).toMatchObject({ status: 409, body: { error: "The signing package is already cancelled." } });
  });

  it("concurrent sends of one draft: exactly one succeeds", async () => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    const results = await Promise.all([1, 2, 3].map(() => as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await auditEntriesFor(testDb.db, id)).filter((e) => e.action === "signing.sent")).toHaveLength(1);
  });
});
