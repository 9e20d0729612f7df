import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { signerAccessLinks, users } from "@/db/schema";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage } from "../helpers/signing-fixtures";

// "Resend invitation" on the manager's package page (app/(manager)/signings/_detail/actions.ts),
// called with the FormData a browser posts inside a Next request scope; only the session lookup and
// revalidatePath are replaced.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId, name: "", email: "" } } : null),
}));
vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: () => undefined,
}));

const { resendInvitationAction } = await import("@/app/(manager)/signings/_detail/actions");

let testDb: TestDb;
let world: DemoWorld;

async function signInAs(email: string) {
  const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  session.userId = user!.id;
}

function post(fields: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  const request = new Request("http://localhost:3000/signings/x", { method: "POST" });
  return inNextRequestScope(request, () => resendInvitationAction({ status: "idle" }, formData));
}

const linksOf = (signerId: string) => testDb.db.select().from(signerAccessLinks).where(eq(signerAccessLinks.signerId, signerId));

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});

afterAll(async () => {
  await testDb.cleanup();
});

beforeEach(() => {
  session.userId = null;
});

describe("resend invitation", () => {
  it("emails a new link that supersedes the old one, then refuses a second resend within the minute", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "resend-a@example.test" }], title: "Resend" });
    const signerId = pkg.signers[0]!.id;
    const before = await linksOf(signerId);
    expect(before.length).toBeGreaterThan(0);
    await signInAs("manager@demo.local");

    // The invitation sent with the package is less than a minute old: 429 as a message.
    const tooSoon = await post({ signingId: pkg.id, signerId });
    expect(tooSoon).toMatchObject({ status: "error", message: "This signer was sent a link less than a minute ago." });
    expect(await linksOf(signerId)).toHaveLength(before.length);

    // A minute later (the old links backdated), the resend issues a new link and retires the old.
    await testDb.db.update(signerAccessLinks).set({ createdAt: new Date(Date.now() - 5 * 60_000) }).where(eq(signerAccessLinks.signerId, signerId));
    const ok = await post({ signingId: pkg.id, signerId });
    expect(ok).toEqual({ status: "ok", message: expect.stringMatching(/^A new invitation was emailed to .+\. The link sent before no longer works\.$/) });
    const after = await linksOf(signerId);
    const fresh = after.filter((l) => !before.some((b) => b.id === l.id));
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.revokedAt).toBeNull();
    for (const old of after.filter((l) => l.id !== fresh[0]!.id)) expect(old.revokedAt).not.toBeNull();
  });

  it("answers a draft's signer with a 409 message and a garbage signer id with a field error", async () => {
    const draft = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "resend-b@example.test" }], status: "draft" });
    await signInAs("manager@demo.local");
    const refused = await post({ signingId: draft.id, signerId: draft.signers[0]!.id });
    expect(refused).toMatchObject({ status: "error", message: "Only a sent or in-progress package's signers can be invited again; this one is draft." });
    const garbage = await post({ signingId: draft.id, signerId: "not-an-id" });
    expect(garbage).toMatchObject({ status: "error", fieldErrors: { signerId: "expected a signer id" } });
  });
});
