import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { comments, users } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { callApi, fetchApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ErrorBody } from "../helpers/schemas";
import { readSse } from "../helpers/sse";

const Comment = z.strictObject({
  id: z.uuid(),
  documentId: z.uuid(),
  parentId: z.uuid().nullable(),
  authorUserId: z.uuid(),
  authorName: z.string(),
  body: z.string(),
  mentionedUserIds: z.array(z.uuid()),
  editedAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const CommentList = z.strictObject({ data: z.array(Comment), nextCursor: z.string().nullable() });

let testDb: TestDb;
let world: DemoWorld;
let docId: string;
let foreignDocId: string;
const userId = async (email: string) => (await testDb.db.select().from(users).where(eq(users.email, email)))[0]!.id;

beforeAll(async () => {
  setEnvForTests({ REALTIME_URL: "memory:", REALTIME_HEARTBEAT_MS: "200" });
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  await createUser(testDb.db, "dallas@demo.local", [
    { role: "manager", organizationId: world.dallas.organizationId, companyId: world.dallas.companyId, locationId: world.dallas.id },
  ]);
  const make = async (email: string, locationId: number) => {
    const res = await callApi("/v1/documents", { method: "POST", token: await tokenFor(email), json: { type: "other", title: "C", locationId } });
    return (res.body as { id: string }).id;
  };
  docId = await make("manager@demo.local", world.austin.id);
  foreignDocId = await make("manager@other.local", world.tulsa.id);
});
afterAll(async () => {
  setEnvForTests({ REALTIME_URL: "" });
  await testDb.cleanup();
});

async function countComments(): Promise<number> {
  const [row] = await testDb.db.select({ n: sql<number>`count(*)::int` }).from(comments);
  return row!.n;
}

async function post(email: string, body: unknown, documentId = docId) {
  return callApi(`/v1/documents/${documentId}/comments`, { method: "POST", token: await tokenFor(email), json: body });
}

async function openStream(email: string, documentId = docId, lastEventId?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${await tokenFor(email)}` };
  if (lastEventId !== undefined) headers["last-event-id"] = lastEventId;
  const response = await fetchApi(new Request(`http://core-api.test/v1/documents/${documentId}/comments/stream`, { headers }));
  return response;
}

describe("comments", () => {
  it("creates, threads, lists in order; mentions by id and by @email of org members only", async () => {
    const ownerId = await userId("owner@demo.local");
    const managerId = await userId("manager@demo.local");
    const top = await post("manager@demo.local", {
      body: "Title arrived. @owner@demo.local please check; cc @manager@other.local and @nobody@example.com.",
    });
    expect(top.status, top.text).toBe(201);
    const topComment = Comment.parse(top.body);
    expect(topComment).toMatchObject({ documentId: docId, parentId: null, authorName: "Max Manager", mentionedUserIds: [ownerId], editedAt: null });

    const reply = Comment.parse((await post("owner@demo.local", { body: "On it", parentId: topComment.id, mentionedUserIds: [managerId] })).body);
    expect(reply).toMatchObject({ parentId: topComment.id, mentionedUserIds: [managerId] });

    const list = CommentList.parse((await callApi(`/v1/documents/${docId}/comments`, { token: await tokenFor("owner@demo.local") })).body);
    expect(list.data.map((c) => c.id)).toEqual([topComment.id, reply.id]);
  });

  it("paginates with a cursor", async () => {
    for (let i = 0; i < 3; i++) await post("manager@demo.local", { body: `page ${i}` });
    const token = await tokenFor("manager@demo.local");
    const all = CommentList.parse((await callApi(`/v1/documents/${docId}/comments?limit=100`, { token })).body).data.map((c) => c.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: z.infer<typeof CommentList> = CommentList.parse(
        (await callApi(`/v1/documents/${docId}/comments?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { token })).body,
      );
      paged.push(...page.data.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });

  it("refuses: mention of a non-member, parent on another document, bad bodies (nothing created)", async () => {
    const foreignComment = Comment.parse((await post("manager@other.local", { body: "elsewhere" }, foreignDocId)).body);
    const cases: unknown[] = [
      { body: "x", mentionedUserIds: [await userId("manager@other.local")] },
      { body: "x", parentId: foreignComment.id },
      { body: "" },
      { body: "   " },
      { body: "x".repeat(10_001) },
      { body: "x", extra: 1 },
      { body: "x", mentionedUserIds: ["nope"] },
      { text: "x" },
    ];
    for (const body of cases) {
      const before = await countComments();
      const res = await post("manager@demo.local", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      ErrorBody.parse(res.body);
      expect(await countComments()).toBe(before);
    }
  });

  it("edits and deletes only one's own comments", async () => {
    const mine = Comment.parse((await post("manager@demo.local", { body: "draft" })).body);
    const path = `/v1/documents/${docId}/comments/${mine.id}`;
    const ownerToken = await tokenFor("owner@demo.local");
    expect((await callApi(path, { method: "PATCH", token: ownerToken, json: { body: "hijack" } })).status).toBe(403);
    expect((await callApi(path, { method: "DELETE", token: ownerToken })).status).toBe(403);

    const token = await tokenFor("manager@demo.local");
    const edited = await callApi(path, { method: "PATCH", token, json: { body: "final @owner@demo.local" } });
    expect(edited.status).toBe(200);
    expect(Comment.parse(edited.body)).toMatchObject({ body: "final @owner@demo.local", mentionedUserIds: [await userId("owner@demo.local")] });
    expect(Comment.parse(edited.body).editedAt).not.toBeNull();

    const reply = Comment.parse((await post("owner@demo.local", { body: "reply", parentId: mine.id })).body);
    const del = await callApi(path, { method: "DELETE", token });
    expect(del.status).toBe(204);
    expect(del.text).toBe("");
    const left = await testDb.db.select().from(comments).where(eq(comments.id, reply.id));
    expect(left).toEqual([]);
    expect((await callApi(path, { method: "DELETE", token })).status).toBe(404);
    expect((await callApi(path, { method: "PATCH", token, json: { body: "x" } })).status).toBe(404);
  });

  it("role matrix: signer 403, other organization and other location 404", async () => {
    const target = Comment.parse((await post("manager@demo.local", { body: "matrix" })).body);
    for (const [email, status] of [
      ["signer@demo.local", 403],
      ["manager@other.local", 404],
      ["dallas@demo.local", 404],
    ] as const) {
      const token = await tokenFor(email);
      const before = await countComments();
      const responses = [
        await callApi(`/v1/documents/${docId}/comments`, { token }),
        await callApi(`/v1/documents/${docId}/comments`, { method: "POST", token, json: { body: "x" } }),
        await callApi(`/v1/documents/${docId}/comments/${target.id}`, { method: "PATCH", token, json: { body: "x" } }),
        await callApi(`/v1/documents/${docId}/comments/${target.id}`, { method: "DELETE", token }),
        await callApi(`/v1/documents/${docId}/comments/stream`, { token }),
      ];
      for (const res of responses) {
        expect(res.status, email).toBe(status);
        ErrorBody.parse(res.body);
      }
      expect(await countComments()).toBe(before);
    }
  });

  it("admins read comments and the stream (global read) but write nothing: 403", async () => {
    const target = Comment.parse((await post("manager@demo.local", { body: "admin view" })).body);
    const token = await tokenFor("admin@demo.local");
    const list = CommentList.parse((await callApi(`/v1/documents/${docId}/comments?limit=100`, { token })).body);
    expect(list.data.map((c) => c.id)).toContain(target.id);
    const stream = await openStream("admin@demo.local");
    expect(stream.status).toBe(200);
    await stream.body!.cancel();
    const before = await countComments();
    for (const res of [
      await callApi(`/v1/documents/${docId}/comments`, { method: "POST", token, json: { body: "x" } }),
      await callApi(`/v1/documents/${docId}/comments/${target.id}`, { method: "PATCH", token, json: { body: "x" } }),
      await callApi(`/v1/documents/${docId}/comments/${target.id}`, { method: "DELETE", token }),
    ]) {
      expect(res.status).toBe(403);
      ErrorBody.parse(res.body);
    }
    expect(await countComments()).toBe(before);
  });

  it("streams created, updated and deleted events to subscribers, with heartbeats", async () => {
    const response = await openStream("owner@demo.local");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const stream = readSse(response);
    try {
      expect(await stream.next((e) => e.event === "ready")).toEqual({ event: "ready", data: { documentId: docId } });
      const created = Comment.parse((await post("manager@demo.local", { body: "live" })).body);
      expect((await stream.next((e) => e.event === "created")).data).toEqual(created);
      const token = await tokenFor("manager@demo.local");
      const path = `/v1/documents/${docId}/comments/${created.id}`;
      const updated = Comment.parse((await callApi(path, { method: "PATCH", token, json: { body: "live!" } })).body);
      expect((await stream.next((e) => e.event === "updated")).data).toEqual(updated);
      await callApi(path, { method: "DELETE", token });
      expect((await stream.next((e) => e.event === "deleted")).data).toEqual({ id: created.id, documentId: docId, parentId: null });
      await stream.next((e) => e.event === "heartbeat", 2000);
      // Another document's events do not leak into this stream.
      await post("manager@other.local", { body: "elsewhere" }, foreignDocId);
      await post("manager@demo.local", { body: "marker" });
      expect(((await stream.next((e) => e.event === "created")).data as { body: string }).body).toBe("marker");
    } finally {
      await stream.close();
    }
  });

  it("resumes with Last-Event-ID: the events missed while disconnected come first, from the database, then the live ones, none twice", async () => {
    const first = readSse(await openStream("owner@demo.local"));
    let lastId: string;
    let seen: { id: string };
    try {
      await first.next((e) => e.event === "ready");
      seen = Comment.parse((await post("manager@demo.local", { body: "before the drop" })).body);
      const event = await first.next((e) => e.event === "created");
      expect(event.data).toEqual(seen);
      expect(event.id).toMatch(/^\d+$/);
      lastId = event.id!;
    } finally {
      await first.close();
    }
    // While the client is away: a comment, an edit, a delete, and another document's comment.
    const token = await tokenFor("manager@demo.local");
    const missed = Comment.parse((await post("manager@demo.local", { body: "while away" })).body);
    const edited = Comment.parse((await callApi(`/v1/documents/${docId}/comments/${missed.id}`, { method: "PATCH", token, json: { body: "while away!" } })).body);
    await callApi(`/v1/documents/${docId}/comments/${seen.id}`, { method: "DELETE", token });
    await post("manager@other.local", { body: "elsewhere" }, foreignDocId);

    const resumed = readSse(await openStream("owner@demo.local", docId, lastId));
    try {
      await resumed.next((e) => e.event === "ready");
      const replayed = [await resumed.next((e) => e.event !== "heartbeat"), await resumed.next((e) => e.event !== "heartbeat"), await resumed.next((e) => e.event !== "heartbeat")];
      expect(replayed.map((e) => [e.event, e.data])).toEqual([
        ["created", missed],
        ["updated", edited],
        ["deleted", { id: seen.id, documentId: docId, parentId: null }],
      ]);
      const ids = replayed.map((e) => Number(e.id));
      expect(ids.every((id) => id > Number(lastId))).toBe(true);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      // Then live, with the next id.
      const live = Comment.parse((await post("manager@demo.local", { body: "live after resume" })).body);
      const next = await resumed.next((e) => e.event !== "heartbeat");
      expect([next.event, next.data]).toEqual(["created", live]);
      expect(Number(next.id)).toBeGreaterThan(ids.at(-1)!);
      expect(resumed.events.filter((e) => e.event === "created" && (e.data as { id: string }).id === missed.id)).toHaveLength(1);
    } finally {
      await resumed.close();
    }

    // Resuming from the newest id replays nothing; a stream opened without the header replays nothing either.
    const quiet = readSse(await openStream("owner@demo.local"));
    try {
      await quiet.next((e) => e.event === "ready");
      await expect(quiet.next((e) => e.event !== "heartbeat", 700)).rejects.toThrow("no matching event");
    } finally {
      await quiet.close();
    }
  });

  it("refuses a Last-Event-ID that is not an event id: 400, nothing streamed", async () => {
    for (const bad of ["abc", "-1", "1".repeat(16), "1 OR 1=1"]) {
      const response = await openStream("owner@demo.local", docId, bad);
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toMatch(/last-event-id|Last-Event-ID/);
    }
  });

  it("ends a stream after REALTIME_STREAM_MAX_MS, so that the client reconnects and access is checked again", async () => {
    setEnvForTests({ REALTIME_URL: "memory:", REALTIME_HEARTBEAT_MS: "200", REALTIME_STREAM_MAX_MS: "600" });
    try {
      const stream = readSse(await openStream("owner@demo.local"));
      try {
        expect((await stream.next((e) => e.event === "ready")).event).toBe("ready");
        // Ended by the server ("event stream ended"), not merely quiet ("no matching event within …").
        await expect(stream.next(() => false, 5000)).rejects.toThrow("event stream ended");
      } finally {
        await stream.close();
      }
    } finally {
      setEnvForTests({ REALTIME_URL: "memory:", REALTIME_HEARTBEAT_MS: "200" });
    }
  });

  it("fuzz: malformed comment bodies never 5xx", async () => {
    const token = await tokenFor("manager@demo.local");
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (body) => {
        const res = await callApi(`/v1/documents/${docId}/comments`, { method: "POST", token, json: body });
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 50 },
    );
  });
});

describe("without REALTIME_URL", () => {
  it("every comments operation answers 503 {error}; signers still 403", async () => {
    const existing = Comment.parse((await post("manager@demo.local", { body: "before" })).body);
    setEnvForTests({ REALTIME_URL: "" });
    try {
      const token = await tokenFor("manager@demo.local");
      const before = await countComments();
      const responses = [
        await callApi(`/v1/documents/${docId}/comments`, { token }),
        await callApi(`/v1/documents/${docId}/comments`, { method: "POST", token, json: { body: "x" } }),
        await callApi(`/v1/documents/${docId}/comments/${existing.id}`, { method: "PATCH", token, json: { body: "x" } }),
        await callApi(`/v1/documents/${docId}/comments/${existing.id}`, { method: "DELETE", token }),
        await callApi(`/v1/documents/${docId}/comments/stream`, { token }),
      ];
      for (const res of responses) {
        expect(res.status).toBe(503);
        expect(ErrorBody.parse(res.body).error).toMatch(/real-time/);
      }
      expect(await countComments()).toBe(before);
      expect((await callApi(`/v1/documents/${docId}/comments`, { token: await tokenFor("signer@demo.local") })).status).toBe(403);
    } finally {
      setEnvForTests({ REALTIME_URL: "memory:", REALTIME_HEARTBEAT_MS: "200" });
    }
  });
});
