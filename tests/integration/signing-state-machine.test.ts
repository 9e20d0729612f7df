import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signingPackages, signingStatusEnum, type SigningPackage, type SigningStatus } from "@/db/schema";
import { hashAuditEntry } from "@/lib/audit/record-audit-entry";
import { AppError } from "@/lib/errors";
import { transitionSigning } from "@/lib/package-lifecycle/transition-signing";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor } from "../helpers/fixtures";
import { as, BASE, createReadyDraft, loadManagerWorld, uploadPdf } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";

// The package state machine (docs/signing-api.md), written out here by hand — never read from
// lib/packages/state-machine.ts — and checked two ways: every pair through `transitionSigning` (the
// one function that changes a package's status), and the manager-driven moves over the HTTP API.
//
//   draft → sent → in_progress → completed; draft|sent|in_progress → cancelled;
//   sent|in_progress → declined or expired. Terminal states have no way out.

/** Every [from, to] pair with to ≠ draft (nothing ever returns to draft). */
const MOVES: [from: SigningStatus, to: SigningStatus, allowed: boolean][] = [
  ["draft", "draft", false],
  ["draft", "sent", true],
  ["draft", "in_progress", false],
  ["draft", "completed", false],
  ["draft", "cancelled", true],
  ["draft", "declined", false],
  ["draft", "expired", false],
  ["sent", "draft", false],
  ["sent", "sent", false],
  ["sent", "in_progress", true],
  ["sent", "completed", true],
  ["sent", "cancelled", true],
  ["sent", "declined", true],
  ["sent", "expired", true],
  ["in_progress", "draft", false],
  ["in_progress", "sent", false],
  ["in_progress", "in_progress", false],
  ["in_progress", "completed", true],
  ["in_progress", "cancelled", true],
  ["in_progress", "declined", true],
  ["in_progress", "expired", true],
  ["completed", "draft", false],
  ["completed", "sent", false],
  ["completed", "in_progress", false],
  ["completed", "completed", false],
  ["completed", "cancelled", false],
  ["completed", "declined", false],
  ["completed", "expired", false],
  ["cancelled", "draft", false],
  ["cancelled", "sent", false],
  ["cancelled", "in_progress", false],
  ["cancelled", "completed", false],
  ["cancelled", "cancelled", false],
  ["cancelled", "declined", false],
  ["cancelled", "expired", false],
  ["declined", "draft", false],
  ["declined", "sent", false],
  ["declined", "in_progress", false],
  ["declined", "completed", false],
  ["declined", "cancelled", false],
  ["declined", "declined", false],
  ["declined", "expired", false],
  ["expired", "draft", false],
  ["expired", "sent", false],
  ["expired", "in_progress", false],
  ["expired", "completed", false],
  ["expired", "cancelled", false],
  ["expired", "declined", false],
  ["expired", "expired", false],
];
const allowed = (from: SigningStatus, to: SigningStatus) => MOVES.some(([f, t, ok]) => f === from && t === to && ok);

const PATH = `${BASE}/signings`;
const STATUSES = signingStatusEnum.enumValues;

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

const rowOf = async (id: string) => (await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, id)))[0];
const statusOf = async (id: string) => (await rowOf(id))?.status;

/**
 * A package in `status`: reached through the API where the manager side can (draft, sent,
 * cancelled), else sent and then set directly — the state under test is the starting point only.
 */
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

async function conflictOf(run: () => Promise<unknown>): Promise<AppError> {
  const error = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(409);
  return error as AppError;
}

describe("the package state table", () => {
  it("lists every pair of states exactly once", () => {
    const pairs = MOVES.map(([from, to]) => `${from}>${to}`);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(pairs.sort()).toEqual(STATUSES.flatMap((from) => STATUSES.map((to) => `${from}>${to}`)).sort());
  });
});

describe("transitionSigning", () => {
  for (const [from, to, ok] of MOVES) {
    it(`${from} → ${to}: ${ok ? "moves, stamps and audits" : "409, nothing changes"}`, async () => {
      const id = await packageIn(from);
      const signing = (await rowOf(id))!;
      const auditBefore = await auditEntriesFor(testDb.db, id);
      const run = () => testDb.db.transaction((tx) => transitionSigning(tx, signing, to, { actorUserId: null, details: { why: "table" } }));
      if (ok) {
        const after = await run();
        expect(after.status).toBe(to);
        expect(await statusOf(id)).toBe(to);
        const stamp = { sent: after.sentAt, completed: after.completedAt, cancelled: after.cancelledAt, declined: after.declinedAt }[to as string];
        if (to !== "in_progress" && to !== "expired") expect(stamp).toBeInstanceOf(Date);
        const added = (await auditEntriesFor(testDb.db, id)).slice(auditBefore.length);
        expect(added).toHaveLength(1);
        expect(added[0]).toMatchObject({
          action: `signing.${to}`,
          entityType: "signing_package",
          entityId: id,
          actorUserId: null,
          before: expect.objectContaining({ status: from }),
          after: expect.objectContaining({ status: to, why: "table" }),
        });
      } else {
        await conflictOf(run);
        expect(await rowOf(id)).toEqual(signing);
        expect(await auditEntriesFor(testDb.db, id)).toHaveLength(auditBefore.length);
      }
    });
  }

  it("a move read from a stale row loses with 409 when another move committed first", async () => {
    const id = await packageIn("sent");
    const stale: SigningPackage = (await rowOf(id))!;
    expect((await as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "first" } })).status).toBe(200);
    const auditBefore = (await auditEntriesFor(testDb.db, id)).length;
    // sent → expired is allowed, so only the conditional update can refuse it.
    const error = await conflictOf(() => testDb.db.transaction((tx) => transitionSigning(tx, stale, "expired", { actorUserId: null })));
    expect(error.message).toMatch(/no longer sent/);
    expect(await statusOf(id)).toBe("cancelled");
    expect(await auditEntriesFor(testDb.db, id)).toHaveLength(auditBefore);
  });
});

describe("signing package state machine over the API", () => {
  it("walks draft → sent → cancelled with a verifiable audit chain", async () => {
    const id = await createReadyDraft("manager@demo.local", world.austin.id);
    expect(await statusOf(id)).toBe("draft");
    expect((await as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" })).status).toBe(200);
    expect(await statusOf(id)).toBe("sent");
    expect((await as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "done" } })).status).toBe(200);
    expect(await statusOf(id)).toBe("cancelled");

    const entries = await auditEntriesFor(testDb.db, id);
    expect(entries.map((e) => e.action)).toEqual(["signing.created", "document.added", "signer.notified", "signing.sent", "signing.cancelled"]);
    let prev: string | null = null;
    for (const entry of entries) {
      expect(entry.prevHash).toBe(prev);
      expect(entry.hash).toBe(hashAuditEntry({ ...entry, prevHash: prev }));
      prev = entry.hash;
    }
  });

  type Action = {
    name: string;
    allowed: (from: SigningStatus) => boolean;
    to?: SigningStatus;
    ok: number;
    /** The audit actions an allowed call appends, in order. */
    audit: string[];
    run: (id: string) => ReturnType<typeof as>;
  };
  const actions: Action[] = [
    {
      name: "send",
      allowed: (s) => allowed(s, "sent"),
      to: "sent",
      ok: 200,
      // The package's one signer is the first routing group.
      audit: ["signer.notified", "signing.sent"],
      run: (id) => as("manager@demo.local", `${PATH}/${id}/send`, { method: "POST" }),
    },
    {
      name: "cancel",
      allowed: (s) => allowed(s, "cancelled"),
      to: "cancelled",
      ok: 200,
      audit: ["signing.cancelled"],
      run: (id) => as("manager@demo.local", `${PATH}/${id}/cancel`, { method: "POST", json: { reason: "walk" } }),
    },
    {
      name: "edit",
      allowed: (s) => s === "draft",
      ok: 200,
      audit: ["signing.updated"],
      run: (id) => as("manager@demo.local", `${PATH}/${id}`, { method: "PATCH", json: { title: "Edited" } }),
    },
    { name: "delete", allowed: (s) => s === "draft", ok: 204, audit: ["signing.deleted"], run: (id) => as("manager@demo.local", `${PATH}/${id}`, { method: "DELETE" }) },
    {
      name: "add signer",
      allowed: (s) => s === "draft",
      ok: 201,
      audit: ["signer.added"],
      run: (id) => as("manager@demo.local", `${PATH}/${id}/signers`, { method: "POST", json: { name: "Extra", email: "extra@example.com" } }),
    },
    { name: "upload document", allowed: (s) => s === "draft", ok: 201, audit: ["document.added"], run: (id) => uploadPdf("manager@demo.local", id) },
  ];

  for (const from of STATUSES) {
    for (const action of actions) {
      const isAllowed = action.allowed(from);
      it(`${from} --${action.name}--> ${isAllowed ? (action.to ?? from) : "409"}`, async () => {
        const id = await packageIn(from);
        const auditBefore = (await auditEntriesFor(testDb.db, id)).length;
        const res = await action.run(id);
        if (isAllowed) {
          expect(res.status).toBe(action.ok);
          if (action.name === "delete") expect(await statusOf(id)).toBeUndefined();
          else expect(await statusOf(id)).toBe(action.to ?? from);
          // Every allowed call appends exactly its entries; a deleted draft keeps its trail.
          expect((await auditEntriesFor(testDb.db, id)).slice(auditBefore).map((e) => e.action)).toEqual(action.audit);
        } else {
          expect(res.status).toBe(409);
          ErrorBody.parse(res.body);
          expect(await statusOf(id)).toBe(from);
          expect(await auditEntriesFor(testDb.db, id)).toHaveLength(auditBefore);
        }
      });
    }
  }

  it("the 409 for cancelling a cancelled package says it is already cancelled", async () => {
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
