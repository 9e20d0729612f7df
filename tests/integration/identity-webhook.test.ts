import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { Webhook } from "svix";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { POST } from "@/app/api/webhooks/identity/route";
import { inboundEvents, users } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { callApi } from "@/tests/helpers/api";
import { clerkKeys, clerkToken } from "@/tests/helpers/clerk";
import { createTestDb, type TestDb } from "@/tests/helpers/db";

const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
const WEBHOOK_URL = "http://localhost:3000/api/webhooks/identity";

type ClerkUserData = {
  id: string;
  email?: string | null;
  verified?: boolean;
  firstName?: string | null;
  lastName?: string | null;
};

/** A Clerk `user.*` event body shaped like Clerk's (UserJSON inside the event envelope). */
function userEvent(type: "user.created" | "user.updated", user: ClerkUserData): string {
  const emailId = `idn_${user.id}`;
  return JSON.stringify({
    object: "event",
    type,
    instance_id: "ins_2test",
    timestamp: Date.now(),
    data: {
      object: "user",
      id: user.id,
      first_name: user.firstName ?? null,
      last_name: user.lastName ?? null,
      username: null,
      primary_email_address_id: user.email ? emailId : null,
      email_addresses: user.email
        ? [
            { id: `idn_other_${user.id}`, object: "email_address", email_address: `secondary+${user.id}@example.test`, verification: { status: "verified", strategy: "email_code" } },
            {
              id: emailId,
              object: "email_address",
              email_address: user.email,
              verification: { status: user.verified === false ? "unverified" : "verified", strategy: "email_code" },
            },
          ]
        : [],
      created_at: Date.now(),
      updated_at: Date.now(),
    },
  });
}

function deletedEvent(id: string): string {
  return JSON.stringify({ object: "event", type: "user.deleted", data: { object: "user", id, deleted: true } });
}

function signedRequest(
  body: string,
  options: { msgId?: string; timestamp?: Date; secret?: string; signedBody?: string; omit?: string[] } = {},
): Request {
  const msgId = options.msgId ?? `msg_${randomUUID()}`;
  const timestamp = options.timestamp ?? new Date();
  const signature = new Webhook(options.secret ?? SECRET).sign(msgId, timestamp, options.signedBody ?? body);
  const headers = new Headers({
    "content-type": "application/json",
    "svix-id": msgId,
    "svix-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "svix-signature": signature,
  });
  for (const name of options.omit ?? []) headers.delete(name);
  return new Request(WEBHOOK_URL, { method: "POST", headers, body });
}

async function deliver(body: string, options: Parameters<typeof signedRequest>[1] = {}): Promise<{ status: number; json: unknown }> {
  const response = await POST(signedRequest(body, options));
  return { status: response.status, json: await response.json() };
}

let testDb: TestDb;

async function userBySubject(subject: string) {
  const [row] = await testDb.db.select().from(users).where(eq(users.authSubject, subject));
  return row;
}

async function eventRow(msgId: string) {
  const [row] = await testDb.db
    .select()
    .from(inboundEvents)
    .where(and(eq(inboundEvents.source, "identity"), eq(inboundEvents.providerEventId, msgId)));
  return row;
}

async function countEvents(): Promise<number> {
  const [row] = await testDb.db.select({ n: sql<number>`count(*)::int` }).from(inboundEvents);
  return row!.n;
}

async function countUsers(where: SQL | undefined): Promise<number> {
  const [row] = await testDb.db.select({ n: sql<number>`count(*)::int` }).from(users).where(where);
  return row!.n;
}

beforeAll(async () => {
  testDb = await createTestDb();
});

beforeEach(() => {
  setEnvForTests({
    CLERK_WEBHOOK_SIGNING_SECRET: SECRET,
    CLERK_JWT_KEY: clerkKeys.publicPem,
    CLERK_AUTHORIZED_PARTIES: "http://localhost:3000",
  });
});

afterAll(async () => {
  await testDb.cleanup();
});

describe("POST /api/webhooks/identity – rejections", () => {
  const body = userEvent("user.created", { id: "user_2rejected", email: "rejected@example.test" });

  it("answers 503 when the signing secret is not configured", async () => {
    setEnvForTests({ CLERK_WEBHOOK_SIGNING_SECRET: undefined });
    const response = await deliver(body);
    expect(response).toEqual({ status: 503, json: { error: "Identity webhook is not configured." } });
  });

  it("answers 400 when a signature header is missing", async () => {
    for (const header of ["svix-id", "svix-timestamp", "svix-signature"]) {
      const response = await deliver(body, { omit: [header] });
      expect(response).toEqual({ status: 400, json: { error: "Missing webhook signature headers." } });
    }
  });

  it("answers 400 for a signature made with another secret", async () => {
    const response = await deliver(body, { secret: `whsec_${randomBytes(24).toString("base64")}` });
    expect(response).toEqual({ status: 400, json: { error: "Invalid webhook signature." } });
  });

  it("answers 400 for a tampered body", async () => {
    const tampered = body.replace("rejected@example.test", "attacker@example.test");
    const response = await deliver(tampered, { signedBody: body });
    expect(response).toEqual({ status: 400, json: { error: "Invalid webhook signature." } });
  });

  it("answers 400 for a stale timestamp (more than 5 minutes old), even when correctly signed", async () => {
    const response = await deliver(body, { timestamp: new Date(Date.now() - 6 * 60 * 1000) });
    expect(response).toEqual({ status: 400, json: { error: "Invalid webhook signature." } });
  });

  it("answers 400 for a correctly signed body that is not JSON", async () => {
    const response = await deliver("not json");
    expect(response).toEqual({ status: 400, json: { error: "Webhook body is not valid JSON." } });
  });

  it("answers 413 for a body larger than 1 MiB before reading it", async () => {
    const request = signedRequest(body);
    const response = await POST(
      new Request(request, { headers: { ...Object.fromEntries(request.headers), "content-length": String(2 * 1024 * 1024) } }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "Request body exceeds 1048576 bytes." });
  });

  it("stored nothing and created nobody for the rejected deliveries", async () => {
    expect(await countEvents()).toBe(0);
    expect(await userBySubject("user_2rejected")).toBeUndefined();
  });
});

describe("POST /api/webhooks/identity – user events", () => {
  it("user.created creates a Clerk user who can then call the API", async () => {
    const msgId = "msg_created_1";
    const response = await deliver(
      userEvent("user.created", { id: "user_2alice", email: "Alice@Example.test", firstName: "Alice", lastName: "Liddell" }),
      { msgId },
    );
    expect(response).toEqual({ status: 200, json: { received: true } });

    const alice = await userBySubject("user_2alice");
    expect(alice).toMatchObject({ email: "Alice@Example.test", name: "Alice Liddell", authProvider: "clerk", isActive: true });
    expect(await eventRow(msgId)).toMatchObject({ type: "user.created", status: "processed", lastError: null });

    const session = await callApi("/v1/signing/session", { token: await clerkToken({ sub: "user_2alice" }) });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { id: alice!.id, authProvider: "clerk" } });
  });

  it("names a user without first or last name after their email", async () => {
    await deliver(userEvent("user.created", { id: "user_2noname", email: "noname@example.test" }));
    expect(await userBySubject("user_2noname")).toMatchObject({ name: "noname@example.test" });
  });

  it("user.updated refreshes name and email", async () => {
    await deliver(userEvent("user.created", { id: "user_2bob", email: "bob@example.test", firstName: "Bob" }));
    const before = await userBySubject("user_2bob");
    const response = await deliver(
      userEvent("user.updated", { id: "user_2bob", email: "robert@example.test", firstName: "Robert", lastName: "Smith" }),
    );
    expect(response.status).toBe(200);
    expect(await userBySubject("user_2bob")).toMatchObject({ id: before!.id, email: "robert@example.test", name: "Robert Smith" });
  });

  it("user.updated does not take over an unverified primary email, but still updates the name", async () => {
    await deliver(userEvent("user.created", { id: "user_2carol", email: "carol@example.test", firstName: "Carol" }));
    await deliver(userEvent("user.updated", { id: "user_2carol", email: "carol.new@example.test", verified: false, firstName: "Caroline" }));
    expect(await userBySubject("user_2carol")).toMatchObject({ email: "carol@example.test", name: "Caroline" });
  });

  it("user.updated for a user never seen creates them (events may arrive out of order)", async () => {
    const msgId = "msg_updated_first";
    await deliver(userEvent("user.updated", { id: "user_2early", email: "early@example.test" }), { msgId });
    expect(await userBySubject("user_2early")).toMatchObject({ email: "early@example.test" });
    expect(await eventRow(msgId)).toMatchObject({ status: "processed" });
  });

  it("links an invited user (no auth subject) through a verified email", async () => {
    const [invited] = await testDb.db
      .insert(users)
      .values({ email: "dana@example.test", name: "Dana (invited)", authProvider: "local", authSubject: null })
      .returning();
    const response = await deliver(userEvent("user.created", { id: "user_2dana", email: "DANA@example.test", firstName: "Dana", lastName: "Scully" }));
    expect(response.status).toBe(200);

    const linked = await userBySubject("user_2dana");
    expect(linked).toMatchObject({ id: invited!.id, authProvider: "clerk", authSubject: "user_2dana", name: "Dana Scully" });
    expect(await countUsers(sql`lower(${users.email}) = 'dana@example.test'`)).toBe(1);

    const session = await callApi("/v1/signing/session", { token: await clerkToken({ sub: "user_2dana" }) });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { id: invited!.id } });
  });

  it("does not link an invited user through an unverified email: the event fails, nothing changes", async () => {
    const [invited] = await testDb.db
      .insert(users)
      .values({ email: "erin@example.test", name: "Erin (invited)", authSubject: null })
      .returning();
    const msgId = "msg_unverified_link";
    const response = await deliver(userEvent("user.created", { id: "user_2mallory", email: "erin@example.test", verified: false }), { msgId });
    expect(response).toEqual({ status: 200, json: { received: true } });

    const [after] = await testDb.db.select().from(users).where(eq(users.id, invited!.id));
    expect(after).toMatchObject({ authSubject: null, authProvider: "local", name: "Erin (invited)" });
    expect(await userBySubject("user_2mallory")).toBeUndefined();
    expect(await eventRow(msgId)).toMatchObject({ status: "failed", processedAt: null });
    expect((await eventRow(msgId))!.lastError).toMatch(/not verified/);

    const session = await callApi("/v1/signing/session", { token: await clerkToken({ sub: "user_2mallory" }) });
    expect(session).toMatchObject({ status: 401, body: { error: "Invalid or expired token." } });
  });

  it("does not take over a user who already signs in with another identity: failed, not 500", async () => {
    await testDb.db.insert(users).values({ email: "frank@example.test", name: "Frank", authSubject: "local|frank@example.test" });
    const msgId = "msg_email_conflict";
    const response = await deliver(userEvent("user.created", { id: "user_2frank", email: "frank@example.test" }), { msgId });
    expect(response.status).toBe(200);
    expect(await userBySubject("user_2frank")).toBeUndefined();
    expect(await userBySubject("local|frank@example.test")).toMatchObject({ authProvider: "local" });
    expect(await eventRow(msgId)).toMatchObject({ status: "failed", lastError: "The email address is already used by another user." });
  });

  it("rejects an update to an email another user holds: failed, the whole event is rolled back", async () => {
    await deliver(userEvent("user.created", { id: "user_2gina", email: "gina@example.test", firstName: "Gina" }));
    const msgId = "msg_update_conflict";
    const response = await deliver(userEvent("user.updated", { id: "user_2gina", email: "alice@example.test", firstName: "Changed" }), { msgId });
    expect(response.status).toBe(200);
    expect(await userBySubject("user_2gina")).toMatchObject({ email: "gina@example.test", name: "Gina" });
    expect(await eventRow(msgId)).toMatchObject({ status: "failed" });
  });

  it("records a user event with an unusable payload as failed", async () => {
    const msgId = "msg_bad_payload";
    const body = JSON.stringify({ type: "user.created", object: "event", data: { object: "user" } });
    expect((await deliver(body, { msgId })).status).toBe(200);
    expect(await eventRow(msgId)).toMatchObject({ status: "failed" });
    expect((await eventRow(msgId))!.lastError).toMatch(/^Invalid user.created payload: id /);
  });

  it("user.deleted deactivates the user, keeps the row, and their token stops working", async () => {
    await deliver(userEvent("user.created", { id: "user_2henry", email: "henry@example.test" }));
    const token = await clerkToken({ sub: "user_2henry" });
    expect((await callApi("/v1/signing/session", { token })).status).toBe(200);

    const msgId = "msg_deleted_1";
    expect(await deliver(deletedEvent("user_2henry"), { msgId })).toEqual({ status: 200, json: { received: true } });
    const henry = await userBySubject("user_2henry");
    expect(henry).toMatchObject({ isActive: false });
    expect(henry!.deactivatedAt).toBeInstanceOf(Date);
    expect(await eventRow(msgId)).toMatchObject({ status: "processed" });

    const session = await callApi("/v1/signing/session", { token });
    expect(session).toMatchObject({ status: 401, body: { error: "Invalid or expired token." } });

    // A late user.updated does not bring them back; a second user.deleted keeps the first timestamp.
    await deliver(userEvent("user.updated", { id: "user_2henry", email: "henry@example.test", firstName: "Henry" }));
    await deliver(deletedEvent("user_2henry"));
    const after = await userBySubject("user_2henry");
    expect(after).toMatchObject({ isActive: false, name: "Henry" });
    expect(after!.deactivatedAt!.getTime()).toBe(henry!.deactivatedAt!.getTime());
  });

  it("user.deleted for an unknown user is stored as ignored", async () => {
    const msgId = "msg_deleted_unknown";
    expect((await deliver(deletedEvent("user_2ghost"), { msgId })).status).toBe(200);
    expect(await eventRow(msgId)).toMatchObject({ status: "ignored" });
  });

  it("stores unknown event types as ignored and answers 200", async () => {
    const msgId = "msg_session_created";
    const body = JSON.stringify({ object: "event", type: "session.created", data: { id: "sess_2x", user_id: "user_2alice" } });
    expect(await deliver(body, { msgId })).toEqual({ status: 200, json: { received: true } });
    expect(await eventRow(msgId)).toMatchObject({ type: "session.created", status: "ignored", payload: JSON.parse(body) });
  });

  it("does nothing twice for a duplicate delivery", async () => {
    const first = userEvent("user.updated", { id: "user_2ivan", email: "ivan@example.test", firstName: "Ivan" });
    const second = userEvent("user.updated", { id: "user_2ivan", email: "ivan@example.test", firstName: "Ivan the Second" });
    expect(await deliver(first, { msgId: "msg_ivan_1" })).toEqual({ status: 200, json: { received: true } });
    expect((await deliver(second, { msgId: "msg_ivan_2" })).status).toBe(200);
    const eventsBefore = await countEvents();

    // Svix redelivers msg_ivan_1 (same id, new timestamp and signature): it must not rename Ivan back.
    expect(await deliver(first, { msgId: "msg_ivan_1" })).toEqual({ status: 200, json: { received: true, duplicate: true } });
    expect(await countEvents()).toBe(eventsBefore);
    expect(await userBySubject("user_2ivan")).toMatchObject({ name: "Ivan the Second" });
    expect(await countUsers(eq(users.authSubject, "user_2ivan"))).toBe(1);
  });

  it("handles concurrent deliveries of the same event once", async () => {
    const body = userEvent("user.created", { id: "user_2judy", email: "judy@example.test" });
    const responses = await Promise.all([0, 1, 2].map(() => deliver(body, { msgId: "msg_judy" })));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(responses.filter((r) => (r.json as { duplicate?: boolean }).duplicate === true)).toHaveLength(2);
    expect(await userBySubject("user_2judy")).toMatchObject({ email: "judy@example.test" });
  });

  it("applies concurrent created and updated events for one new user without a conflict", async () => {
    const created = userEvent("user.created", { id: "user_2kim", email: "kim@example.test", firstName: "Kim" });
    const updated = userEvent("user.updated", { id: "user_2kim", email: "kim@example.test", firstName: "Kim" });
    const responses = await Promise.all([deliver(created, { msgId: "msg_kim_1" }), deliver(updated, { msgId: "msg_kim_2" })]);
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(await eventRow("msg_kim_1")).toMatchObject({ status: "processed" });
    expect(await eventRow("msg_kim_2")).toMatchObject({ status: "processed" });
    expect(await countUsers(eq(users.authSubject, "user_2kim"))).toBe(1);
  });
});
