import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { packageSigners, signingPackages, smsOptOuts, users } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { getManagerSigningPage } from "@/lib/views/get-manager-signing-page";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";

// The package form's signer row: mobile number and the manager's attestation of the consent to
// texts, posted as a browser posts them; the package page's per-signer texts line.
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

const row = (title: string, extra: Record<string, string>) => ({
  locationId: String(world.austin.id),
  title,
  intent: "save",
  "signers.0.name": "Tess Texter",
  "signers.0.email": "tess@example.test",
  "signers.0.role": "signer",
  "signers.0.routingOrder": "1",
  ...extra,
});

async function signerOf(title: string) {
  const [pkg] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.title, title));
  const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, pkg!.id));
  return { pkg: pkg!, signer: signer! };
}

describe("package form: mobile number and consent to texts", () => {
  it("stores the number and the consent with who attested it; unticking on the draft withdraws it", async () => {
    const saved = await post(row("Texts on", { "signers.0.phone": "+15125550161", "signers.0.smsConsent": "on" }));
    expect(saved.redirect).toMatch(/^\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
    const { pkg, signer } = await signerOf("Texts on");
    expect(signer.phone).toBe("+15125550161");
    expect(signer.smsConsentAt).not.toBeNull();
    expect(signer.smsConsentByUserId).toBe(session.userId);

    // The draft edited: the box left unticked (not posted) withdraws the consent, the number stays.
    const edited = await post({ ...row("Texts on", { "signers.0.phone": "+15125550161", "signers.0.id": signer.id }), signingId: pkg.id });
    expect(edited.redirect).toBe(`/signings/${pkg.id}/edit?saved=1`);
    const after = (await signerOf("Texts on")).signer;
    expect(after).toMatchObject({ phone: "+15125550161", smsConsentAt: null });
  });

  it("a ticked consent without a number, or a number not in E.164, is a field error with the typed values kept", async () => {
    const noPhone = await post(row("Consent, no phone", { "signers.0.smsConsent": "on" }));
    expect(noPhone.state).toMatchObject({ status: "error", values: { "signers.0.smsConsent": "on" } });
    expect(noPhone.state && "fieldErrors" in noPhone.state ? noPhone.state.fieldErrors["signers.0.phone"] : undefined).toMatch(/required with smsConsent/);
    const local = await post(row("Local number", { "signers.0.phone": "512 555 0161", "signers.0.smsConsent": "on" }));
    expect(local.state && "fieldErrors" in local.state ? local.state.fieldErrors["signers.0.phone"] : undefined).toMatch(/E\.164/);
    expect(await testDb.db.select().from(signingPackages).where(eq(signingPackages.title, "Local number"))).toHaveLength(0);
  });

  it("the package page says texts are on, off, or stopped by the borrower and when", async () => {
    await post(row("Texts page", { "signers.0.phone": "+15125550171", "signers.0.smsConsent": "on" }));
    const { pkg, signer } = await signerOf("Texts page");
    const principal = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
    let page = await getManagerSigningPage(testDb.db, { principal, packageId: pkg.id });
    expect(page.texts[signer.id]).toMatchObject({ consentAt: expect.any(String), stoppedAt: null, last: null });

    const stoppedAt = new Date("2026-11-20T15:04:00Z");
    await testDb.db.insert(smsOptOuts).values({ organizationId: pkg.organizationId, phone: "+15125550171", keyword: "STOP", stoppedAt });
    page = await getManagerSigningPage(testDb.db, { principal, packageId: pkg.id });
    expect(page.texts[signer.id]!.stoppedAt).toBe(stoppedAt.toISOString());

    const { renderToStaticMarkup } = await import("react-dom/server");
    const { SignerTimeline } = await import("@/app/(manager)/signings/_detail/signer-timeline");
    const html = renderToStaticMarkup(
      SignerTimeline({ signers: page.detail.signers, packageMethod: page.detail.signerAuthMethod, lastReminderAt: {}, now: new Date(), signingId: pkg.id, canResend: false, texts: page.texts }),
    );
    expect(html).toContain("Texts stopped by the borrower on");
    expect(html).toContain(`dateTime="${stoppedAt.toISOString()}"`);
  });
});
