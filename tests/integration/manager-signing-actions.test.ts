import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { auditLog, signingPackages, users } from "@/db/schema";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage } from "../helpers/signing-fixtures";

// The manager page's server actions (app/(manager)/signings/_detail/actions.ts) called with the
// FormData a browser posts, inside a Next request scope. The session lookup is replaced by "this
// user id is signed in" and revalidatePath is recorded; everything else is the real code.
const session = vi.hoisted(() => ({ userId: null as string | null, revalidated: [] as string[] }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId, name: "", email: "" } } : null),
}));
vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: (path: string) => void session.revalidated.push(path),
}));

const { cancelSigningAction, deleteSigningAction, remindSignersAction, sendSigningAction } = await import("@/app/(manager)/signings/_detail/actions");

let testDb: TestDb;
let world: DemoWorld;

async function signInAs(email: string) {
  const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  session.userId = user!.id;
}

function post<T>(action: (previous: { status: "idle" }, formData: FormData) => Promise<T>, fields: Record<string, string>): Promise<T> {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  const request = new Request("http://localhost:3000/signings/x", { method: "POST" });
  return inNextRequestScope(request, () => action({ status: "idle" }, formData));
}

const auditCount = async (id: string) => (await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, id))).length;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});

afterAll(async () => {
  await testDb.cleanup();
});

beforeEach(() => {
  session.userId = null;
  session.revalidated = [];
});

describe("cancel", () => {
  it("cancels without a reason when the box is left empty, then answers a second cancel with 'already cancelled'", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "act-a@example.test" }], title: "Cancel twice" });
    await signInAs("manager@demo.local");
    const first = await post(cancelSigningAction, { signingId: pkg.id, reason: "   " });
    expect(first).toEqual({ status: "ok", message: "Package cancelled. Signers who were still to sign have been told by email." });
    const [row] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, pkg.id));
    expect(row).toMatchObject({ status: "cancelled", cancelReason: null });
    expect(session.revalidated).toEqual([`/signings/${pkg.id}`]);

    const entries = await auditCount(pkg.id);
    const second = await post(cancelSigningAction, { signingId: pkg.id, reason: "Again" });
    expect(second).toEqual({
      status: "error",
      message: "The signing package is already cancelled.",
      fieldErrors: {},
      values: { signingId: pkg.id, reason: "Again" },
    });
    expect(await auditCount(pkg.id)).toBe(entries);
  });

  it("keeps the dialog's reason on a field error and changes nothing", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "act-b@example.test" }], title: "Long reason" });
    await signInAs("manager@demo.local");
    const reason = "x".repeat(1001);
    const state = await post(cancelSigningAction, { signingId: pkg.id, reason });
    expect(state).toMatchObject({ status: "error", values: { reason } });
    expect(Object.keys((state as { fieldErrors: object }).fieldErrors)).toEqual(["reason"]);
    const [row] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, pkg.id));
    expect(row!.status).toBe("sent");
  });

  it("records the reason, and refuses a signer and a manager outside the scope with a sentence", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "act-c@example.test" }], title: "Scoped cancel" });
    await signInAs("act-c@example.test");
    expect(await post(cancelSigningAction, { signingId: pkg.id, reason: "Mine" })).toMatchObject({
      status: "error",
      message: "You do not have permission to cancel signing packages.",
    });
    await signInAs("manager@other.local");
    expect(await post(cancelSigningAction, { signingId: pkg.id, reason: "Theirs" })).toMatchObject({
      status: "error",
      message: `Signing package ${pkg.id} not found.`,
    });
    await signInAs("manager@demo.local");
    expect(await post(cancelSigningAction, { signingId: pkg.id, reason: "Wrong amount" })).toMatchObject({ status: "ok" });
    const [row] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, pkg.id));
    expect(row).toMatchObject({ status: "cancelled", cancelReason: "Wrong amount" });
  });
});

describe("remind", () => {
  it("names who was reminded, and who was already reminded within the hour", async () => {
    const pkg = await createSignerPackage(testDb.db, {
      location: world.austin,
      signers: [{ email: "act-r1@example.test" }, { email: "act-r2@example.test" }, { email: "act-r3@example.test", routingOrder: 2 }],
      title: "Remind",
    });
    await signInAs("manager@demo.local");
    // The current group only (act-r3 signs later), in the page's signer order (same routing order: either way round).
    const both = "(act-r1 and act-r2|act-r2 and act-r1)";
    expect(await post(remindSignersAction, { signingId: pkg.id })).toEqual({ status: "ok", message: expect.stringMatching(new RegExp(`^Reminder sent to ${both}\\.$`)) });
    expect(await post(remindSignersAction, { signingId: pkg.id })).toEqual({
      status: "ok",
      message: expect.stringMatching(new RegExp(`^${both} were already reminded in the last hour, so no second email was sent\\.$`)),
    });
  });
});

describe("draft actions", () => {
  it("sends a draft and names who was emailed first; a second send says it is already sent", async () => {
    const pkg = await createSignerPackage(testDb.db, {
      location: world.austin,
      signers: [{ email: "act-s1@example.test" }, { email: "act-s2@example.test", routingOrder: 2 }],
      status: "draft",
      title: "Send me",
    });
    await signInAs("manager@demo.local");
    expect(await post(sendSigningAction, { signingId: pkg.id })).toEqual({ status: "ok", message: "Sent. act-s1 has been emailed." });
    const [row] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, pkg.id));
    expect(row!.status).toBe("sent");
    expect(await post(sendSigningAction, { signingId: pkg.id })).toMatchObject({ status: "error", message: "The signing package is already sent." });
  });

  it("deletes a draft and goes to the package list; a sent package is refused with a sentence", async () => {
    const draft = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "act-d@example.test" }], status: "draft", title: "Delete me" });
    const sent = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "act-d@example.test" }], title: "Keep me" });
    await signInAs("manager@demo.local");
    await expect(post(deleteSigningAction, { signingId: draft.id })).rejects.toMatchObject({ digest: expect.stringContaining(";/signings;") });
    expect(await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, draft.id))).toEqual([]);
    const refused = await post(deleteSigningAction, { signingId: sent.id });
    expect(refused).toMatchObject({ status: "error" });
    expect((refused as { message: string }).message).toMatch(/sent/);
    expect(await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, sent.id))).toHaveLength(1);
  });
});
