import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { users } from "@/db/schema";
import { signInWithPassword } from "@/lib/sign-in/sign-in-with-password";
import { setEnvForTests } from "@/lib/env";
import { DEMO_PASSWORD } from "@/lib/seed/seed-demo";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";

const Membership = z.strictObject({
  id: z.uuid(),
  role: z.enum(["signer", "manager", "org_admin"]),
  organizationId: z.number().int(),
  companyId: z.number().int().nullable(),
  locationId: z.number().int().nullable(),
  user: z.strictObject({ id: z.uuid(), email: z.string(), name: z.string(), pending: z.boolean() }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const MembershipList = z.strictObject({ data: z.array(Membership), nextCursor: z.string().nullable() });
const Comment = z.object({ authorUserId: z.uuid(), authorName: z.string() });
const CommentList = z.object({ data: z.array(Comment) });

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  setEnvForTests({ REALTIME_URL: "memory:" });
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  // The other organization's manager has used the service: a real name and a sign-in time.
  expect(await signInWithPassword(testDb.db, { email: "manager@other.local", password: DEMO_PASSWORD })).not.toBeNull();
});
afterAll(async () => {
  setEnvForTests({ REALTIME_URL: "" });
  await testDb.cleanup();
});

async function invite(email: string, name?: string) {
  const res = await callApi("/v1/workspace/memberships", {
    method: "POST",
    token: await tokenFor("owner@demo.local"),
    json: { email, ...(name ? { name } : {}), role: "manager", locationId: world.austin.id },
  });
  expect(res.status, res.text).toBe(201);
  return Membership.parse(res.body);
}

async function listed(userId: string) {
  const res = await callApi("/v1/workspace/members?limit=100", { token: await tokenFor("owner@demo.local") });
  expect(res.status, res.text).toBe(200);
  return MembershipList.parse(res.body).data.filter((m) => m.user.id === userId);
}

/** What may differ between two invitations: ids and times. */
const shape = (m: z.infer<typeof Membership>) => ({ ...m, id: "id", user: { ...m.user, id: "id" }, createdAt: "t", updatedAt: "t" });

describe("inviting another organization's user", () => {
  it("answers exactly as for a new address: the typed address and name, pending", async () => {
    const known = await invite("Manager@Other.LOCAL", "Typed Person");
    const fresh = await invite("Brand.New@Example.TEST", "Typed Person");
    expect(known.user).toMatchObject({ email: "Manager@Other.LOCAL", name: "Typed Person", pending: true });
    expect(shape(known)).toEqual({ ...shape(fresh), user: { ...shape(fresh).user, email: "Manager@Other.LOCAL" } });
    expect(JSON.stringify(known)).not.toContain("Morgan");
  });

  it("lists them by the typed name (or the address) until they accept, then by their own name", async () => {
    const [morgan] = await testDb.db.select().from(users).where(eq(users.email, "manager@other.local"));
    const before = await listed(morgan!.id);
    expect(before.map((m) => m.user)).toEqual([{ id: morgan!.id, email: "Manager@Other.LOCAL", name: "Typed Person", pending: true }]);

    const [cosigner] = await testDb.db.select().from(users).where(eq(users.email, "cosigner@demo.local"));
    // cosigner@demo.local is already in this organization: inviting them to another role reveals nothing new.
    const again = await invite("cosigner@demo.local");
    expect(again.user).toMatchObject({ name: "Casey Cosigner", pending: false });
    expect((await listed(cosigner!.id)).every((m) => m.user.name === "Casey Cosigner")).toBe(true);

    const nameless = await invite("someone.else@example.test");
    expect(nameless.user).toMatchObject({ email: "someone.else@example.test", name: "someone.else@example.test", pending: true });

    expect(await signInWithPassword(testDb.db, { email: "manager@other.local", password: DEMO_PASSWORD })).not.toBeNull();
    expect((await listed(morgan!.id)).map((m) => m.user)).toEqual([{ id: morgan!.id, email: "manager@other.local", name: "Morgan Other", pending: false }]);
  });

  it("names a pending invitee's comments as the inviter typed them, not by their own name", async () => {
    const [user] = await testDb.db
      .insert(users)
      .values({ email: "pat@elsewhere.test", name: "Pat Private", authSubject: "local|pat@elsewhere.test" })
      .returning();
    await invite("pat@elsewhere.test", "Pat (title company)");
    const doc = await callApi("/v1/documents", {
      method: "POST",
      token: await tokenFor("manager@demo.local"),
      json: { type: "other", title: "Shared", locationId: world.austin.id },
    });
    expect(doc.status, doc.text).toBe(201);
    const docId = (doc.body as { id: string }).id;

    const created = await callApi(`/v1/documents/${docId}/comments`, { method: "POST", token: await tokenFor("pat@elsewhere.test"), json: { body: "hello" } });
    expect(created.status, created.text).toBe(201);
    expect(Comment.parse(created.body).authorName).toBe("Pat (title company)");

    const list = await callApi(`/v1/documents/${docId}/comments`, { token: await tokenFor("manager@demo.local") });
    expect(list.status, list.text).toBe(200);
    const authors = CommentList.parse(list.body).data.filter((c) => c.authorUserId === user!.id);
    expect(authors.map((c) => c.authorName)).toEqual(["Pat (title company)"]);
    expect(list.text).not.toContain("Pat Private");
  });
});
