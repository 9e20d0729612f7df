import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { packageSigners, signingPackages, templates, users } from "@/db/schema";
import { verifyPassword } from "@/lib/auth/passwords";
import { resolvePrincipal } from "@/lib/auth/principal";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { getSigningDetail } from "@/lib/signings/get-signing-detail";
import { serializeSigningDetail } from "@/lib/signings/serialize-signing-detail";
import { samplePdf } from "../helpers/manager";
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

vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: () => undefined,
}));

const { signingFormAction } = await import("@/app/(manager)/signings/_signing-form/actions");
const { createTemplateAction, updateTemplateAction } = await import("@/app/(manager)/templates/actions");

let testDb: TestDb;
let world: DemoWorld;

type Action = (previous: { status: "idle" }, formData: FormData) => Promise<unknown>;

async function post(fields: Record<string, string>, files: File[] = [], action: Action = signingFormAction as Action) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  for (const file of files) formData.append("files", file);
  const request = new Request("http://localhost:3000/signings/new", { method: "POST" });
  try {
    return { state: (await inNextRequestScope(request, () => action({ status: "idle" }, formData))) as Awaited<ReturnType<typeof signingFormAction>> };
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

const idOf = (redirect: string | undefined) => /^\/signings\/([0-9a-f-]{36})/.exec(redirect ?? "")?.[1];
const signersOf = (packageId: string) => testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, packageId)).orderBy(packageSigners.email);
const fieldErrorsOf = (result: Awaited<ReturnType<typeof post>>) => (result.state && "fieldErrors" in result.state ? result.state.fieldErrors : {});
const messageOf = (result: Awaited<ReturnType<typeof post>>) => (result.state && "message" in result.state ? result.state.message : undefined);

describe("package form: access codes and mobile numbers", () => {
  it("asks for the access code next to the row when the package's method is access_code, and creates nothing without it", async () => {
    const before = (await testDb.db.select({ id: signingPackages.id }).from(signingPackages)).length;
    const result = await post({ ...base("Code missing"), signerAuthMethod: "access_code" });
    expect(result.state?.status).toBe("error");
    expect(fieldErrorsOf(result)["signers.0.accessCode"]).toMatch(/Enter an access code/);
    expect((await testDb.db.select({ id: signingPackages.id }).from(signingPackages)).length).toBe(before);
  });

  it("stores the package's access code only as a hash; the package detail says only that one is set", async () => {
    const result = await post({ ...base("Code given"), signerAuthMethod: "access_code", "signers.0.accessCode": "78701" });
    const id = idOf(result.redirect)!;
    expect(id).toBeDefined();
    const [signer] = await signersOf(id);
    expect(signer!.accessCodeHash).not.toBeNull();
    expect(signer!.accessCodeHash).not.toContain("78701");
    expect(await verifyPassword("78701", signer!.accessCodeHash!)).toBe(true);
    const principal = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
    const detail = serializeSigningDetail(await getSigningDetail(testDb.db, { principal, packageId: id }));
    expect(detail.signerAuthMethod).toBe("access_code");
    expect(detail.signers[0]).toMatchObject({ authMethod: null, hasAccessCode: true });
    expect(JSON.stringify(detail)).not.toContain("78701");
  });

  it("a per-signer override to sms_code needs the mobile number (field error), then stores it; the other signer follows the package", async () => {
    const fields = {
      ...base("Texted signer"),
      signerAuthMethod: "email_code",
      "signers.0.authMethod": "sms_code",
      "signers.1.name": "Casey Follows",
      "signers.1.email": "casey-follows@example.test",
      "signers.1.role": "co_signer",
      "signers.1.routingOrder": "1",
    };
    const missing = await post(fields);
    expect(fieldErrorsOf(missing)["signers.0.phone"]).toMatch(/mobile number/);
    expect(fieldErrorsOf(missing)["signers.1.phone"]).toBeUndefined();
    const badPhone = await post({ ...fields, "signers.0.phone": "512 555 0123" });
    expect(fieldErrorsOf(badPhone)["signers.0.phone"]).toMatch(/E\.164/);
    const saved = await post({ ...fields, "signers.0.phone": "+15125550123" });
    const rows = await signersOf(idOf(saved.redirect)!);
    expect(rows.map((r) => [r.email, r.authMethod, r.phone])).toEqual([
      ["casey-follows@example.test", null, null],
      ["pat-proof@example.test", "sms_code", "+15125550123"],
    ]);
  });

  it("a draft's edit changes the package's method and a signer's override, keeps a stored code when the input stays empty, and replaces it when a new one is typed", async () => {
    const created = await post({ ...base("Draft to edit"), signerAuthMethod: "email_code" });
    const id = idOf(created.redirect)!;
    const [first] = await signersOf(id);
    const row = { signingId: id, locationId: String(world.austin.id), title: "Draft to edit", intent: "save", "signers.0.id": first!.id, "signers.0.name": "Pat Proof", "signers.0.email": "pat-proof@example.test", "signers.0.role": "signer", "signers.0.routingOrder": "1" };

    const noCode = await post({ ...row, signerAuthMethod: "link", "signers.0.authMethod": "access_code" });
    expect(fieldErrorsOf(noCode)["signers.0.accessCode"]).toMatch(/Enter an access code/);

    const withCode = await post({ ...row, signerAuthMethod: "link", "signers.0.authMethod": "access_code", "signers.0.accessCode": "first-code" });
    expect(withCode.redirect).toBe(`/signings/${id}/edit?saved=1`);
    const [afterFirst] = await signersOf(id);
    expect((await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, id)))[0]!.signerAuthMethod).toBe("link");
    expect(afterFirst!.authMethod).toBe("access_code");
    expect(await verifyPassword("first-code", afterFirst!.accessCodeHash!)).toBe(true);

    // The edit page posts keepsAccessCode=1 for a signer whose code is stored: an empty input keeps it.
    const kept = await post({ ...row, signerAuthMethod: "link", "signers.0.authMethod": "access_code", "signers.0.keepsAccessCode": "1", title: "Draft edited" });
    expect(kept.redirect).toBe(`/signings/${id}/edit?saved=1`);
    expect((await signersOf(id))[0]!.accessCodeHash).toBe(afterFirst!.accessCodeHash);

    const replaced = await post({ ...row, signerAuthMethod: "link", "signers.0.authMethod": "access_code", "signers.0.keepsAccessCode": "1", "signers.0.accessCode": "second-code" });
    expect(replaced.redirect).toBe(`/signings/${id}/edit?saved=1`);
    const [afterSecond] = await signersOf(id);
    expect(await verifyPassword("second-code", afterSecond!.accessCodeHash!)).toBe(true);
    expect(await verifyPassword("first-code", afterSecond!.accessCodeHash!)).toBe(false);

    // Back to the package's method.
    const follow = await post({ ...row, signerAuthMethod: "email_code" });
    expect(follow.redirect).toBe(`/signings/${id}/edit?saved=1`);
    expect((await signersOf(id))[0]!.authMethod).toBeNull();
  });

  it("a forged 'code is stored' flag does not get a signer without a code saved", async () => {
    const created = await post({ ...base("Forged flag"), signerAuthMethod: "email_code" });
    const id = idOf(created.redirect)!;
    const [first] = await signersOf(id);
    const result = await post({
      signingId: id, locationId: String(world.austin.id), title: "Forged flag", intent: "save", signerAuthMethod: "access_code",
      "signers.0.id": first!.id, "signers.0.name": "Pat Proof", "signers.0.email": "pat-proof@example.test", "signers.0.role": "signer", "signers.0.routingOrder": "1", "signers.0.keepsAccessCode": "1",
    });
    expect(result.state?.status).toBe("error");
    expect(messageOf(result)).toMatch(/Pat Proof proves who they are with an access code, but none is set/);
    expect((await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, id)))[0]!.signerAuthMethod).toBe("email_code");
  });

  it("Send now with an access code sends the package; the code never comes back", async () => {
    const pdf = new File([(await samplePdf()) as Uint8Array<ArrayBuffer>], "Contract.pdf", { type: "application/pdf" });
    const result = await post({ ...base("Send with code"), intent: "send", signerAuthMethod: "email_code", "signers.0.authMethod": "access_code", "signers.0.accessCode": "ZIP-78701" }, [pdf]);
    const id = idOf(result.redirect)!;
    expect(result.redirect).toBe(`/signings/${id}`);
    expect((await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, id)))[0]!.status).toBe("sent");
  });
});

describe("templates carry the method into the package form", () => {
  it("the template form stores the package's method and a role's method; choosing the template (without JavaScript) sets both on the form", async () => {
    const created = await post(
      {
        organizationId: String(world.austin.organizationId),
        name: "Coded template",
        signerAuthMethod: "access_code",
        "roles.0.key": "buyer", "roles.0.label": "Buyer", "roles.0.role": "signer", "roles.0.routingOrder": "1",
        "roles.1.key": "cobuyer", "roles.1.label": "Co-buyer", "roles.1.role": "co_signer", "roles.1.routingOrder": "1", "roles.1.authMethod": "sms_code",
      },
      [],
      createTemplateAction as Action,
    );
    const templateId = /^\/templates\/([0-9a-f-]{36})$/.exec(created.redirect ?? "")?.[1];
    expect(templateId).toBeDefined();
    const [stored] = await testDb.db.select().from(templates).where(eq(templates.id, templateId!));
    expect(stored!.signerAuthMethod).toBe("access_code");
    expect(stored!.roles.map((r) => r.authMethod)).toEqual([undefined, "sms_code"]);

    const bad = await post({ name: "Coded template", signerAuthMethod: "telepathy" }, [], updateTemplateAction.bind(null, templateId!) as Action);
    expect(fieldErrorsOf(bad).signerAuthMethod).toBeDefined();

    // "Use the template's roles" round trip: the rows take the roles (with the co-buyer's method) and the package takes the template's method.
    const applied = await post({ locationId: String(world.austin.id), templateId: templateId!, intent: "template", signerAuthMethod: "email_code", "signers.0.name": "Bo", "signers.0.email": "bo@example.test" });
    const values = applied.state?.status === "ok" ? applied.state.data!.values : {};
    expect(values).toMatchObject({ signerAuthMethod: "access_code", "signers.0.role": "signer", "signers.1.role": "co_signer", "signers.1.authMethod": "sms_code" });
    expect(values["signers.0.authMethod"]).toBeUndefined();
  });
});
