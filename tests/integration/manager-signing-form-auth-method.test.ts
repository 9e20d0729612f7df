import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signingPackages, users } from "@/db/schema";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";

// The package form's server action (app/(manager)/signings/_signing-form/actions.ts) with the
// FormData a browser posts: the package's "How signers prove who they are" choice is stored.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId, name: "", email: "" } } : null),
}));

const { signingFormAction } = await import("@/app/(manager)/signings/_signing-form/actions");

let testDb: TestDb;
let world: DemoWorld;

async function post(fields: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  const request = new Request("http://localhost:3000/signings/new", { method: "POST" });
  try {
    return { state: await inNextRequestScope(request, () => signingFormAction({ status: "idle" }, formData)) };
  } catch (error) {
    const digest = (error as { digest?: string }).digest;
    if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT")) return { redirect: digest.split(";")[2] };
    throw error;
  }
}

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, "manager@demo.local"));
  session.userId = user!.id;
});

afterAll(async () => {
  await testDb.cleanup();
});

const base = (title: string) => ({ locationId: String(world.austin.id), title, intent: "save", "signers.0.name": "Pat Proof", "signers.0.email": "pat-proof@example.test", "signers.0.role": "signer", "signers.0.routingOrder": "1" });

describe("package form: how signers prove who they are", () => {
  it("stores the chosen method on a new draft, and email code when nothing is chosen", async () => {
    const chosen = await post({ ...base("Proof by link"), signerAuthMethod: "link" });
    const plain = await post(base("Proof by default"));
    expect(chosen.redirect).toMatch(/^\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
    expect(plain.redirect).toMatch(/^\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
    const rows = await testDb.db.select({ title: signingPackages.title, method: signingPackages.signerAuthMethod }).from(signingPackages).orderBy(desc(signingPackages.createdAt)).limit(10);
    expect(rows.find((r) => r.title === "Proof by link")?.method).toBe("link");
    expect(rows.find((r) => r.title === "Proof by default")?.method).toBe("email_code");
  });

  it("answers an unknown method with a field error, keeps the typed values and creates nothing", async () => {
    const before = (await testDb.db.select({ id: signingPackages.id }).from(signingPackages)).length;
    const result = await post({ ...base("Proof by magic"), signerAuthMethod: "magic" });
    expect(result.state).toMatchObject({ status: "error", values: { title: "Proof by magic", signerAuthMethod: "magic" } });
    expect(result.state && "fieldErrors" in result.state ? Object.keys(result.state.fieldErrors) : []).toContain("signerAuthMethod");
    expect((await testDb.db.select({ id: signingPackages.id }).from(signingPackages)).length).toBe(before);
  });
});
