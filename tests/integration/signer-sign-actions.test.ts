import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { handleConsentForm } from "@/app/(signer)/signings/[id]/consent-form";
import { handleSignForm } from "@/app/(signer)/signings/[id]/sign-form";
import { auditLog, eSignatures, packageDocuments } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, pngDataUrl, type FixturePackage } from "../helpers/signing-fixtures";

// The form handlers behind the signer page's server actions (consent-action.ts, sign-action.ts),
// called with the FormData a browser posts.

let testDb: TestDb;
let world: DemoWorld;
const evidence = { ipAddress: "203.0.113.44", userAgent: "Mozilla/5.0 (Form test)" };
const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

async function consent(email: string, signingId: string) {
  return handleConsentForm(testDb.db, {
    principal: await principalFor(email),
    evidence,
    formData: form({ signingId, accept: "yes", disclosureVersion: "2025-01" }),
  });
}

function typedSignForm(pkg: FixturePackage, index = 0, overrides: Record<string, string> = {}) {
  return form({
    signingId: pkg.id,
    documentId: pkg.documents[index]!.id,
    documentSha256: pkg.documents[index]!.sha256,
    idempotencyKey: randomUUID(),
    kind: "typed",
    text: "Form Signer",
    font: "great-vibes",
    ...overrides,
  });
}

const signaturesOn = (documentId: string) => testDb.db.select().from(eSignatures).where(eq(eSignatures.documentId, documentId));

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});

afterAll(async () => {
  await testDb.cleanup();
});

describe("consent form", () => {
  it("needs the box ticked, and then records the acceptance with the request's IP and user agent", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "form-consent@example.test" }] });
    const principal = await principalFor("form-consent@example.test");
    const unticked = await handleConsentForm(testDb.db, { principal, evidence, formData: form({ signingId: pkg.id, disclosureVersion: "2025-01" }) });
    expect(unticked).toEqual({ status: "error", message: "Tick the box to agree before you continue." });

    const stale = await handleConsentForm(testDb.db, { principal, evidence, formData: form({ signingId: pkg.id, accept: "yes", disclosureVersion: "2019-01" }) });
    expect(stale).toEqual({
      status: "error",
      message: "The disclosure was updated after you opened this page. Reload the page to read the current version.",
    });

    const accepted = await consent("form-consent@example.test", pkg.id);
    expect(accepted.status).toBe("accepted");
    const entries = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signer.consented")));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ ipAddress: "203.0.113.44", after: { userAgent: "Mozilla/5.0 (Form test)", disclosureVersion: "2025-01" } });
  });

  it("answers a package that is not the signer's with a sentence, not an exception", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "form-consent-2@example.test" }] });
    expect(await consent("signer@demo.local", pkg.id)).toEqual({
      status: "error",
      message: "We could not find this in your signing package. Reload the page to see its current state.",
    });
  });
});

describe("sign form", () => {
  it("refuses to sign before the disclosure is accepted, and records nothing", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "form-sign-1@example.test" }] });
    const state = await handleSignForm(testDb.db, { principal: await principalFor("form-sign-1@example.test"), evidence, formData: typedSignForm(pkg) });
    expect(state).toEqual({ status: "error", reason: "consent", message: "Read and accept the electronic records disclosure before you sign." });
    expect(await signaturesOn(pkg.documents[0]!.id)).toHaveLength(0);
  });

  it("signs with the typed signature, the viewed document's hash, the intent's key and the request's evidence", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "form-sign-2@example.test" }] });
    await consent("form-sign-2@example.test", pkg.id);
    const formData = typedSignForm(pkg);
    const state = await handleSignForm(testDb.db, { principal: await principalFor("form-sign-2@example.test"), evidence, formData });
    expect(state).toMatchObject({ status: "signed", documentId: pkg.documents[0]!.id });
    const [record] = await signaturesOn(pkg.documents[0]!.id);
    expect(record).toMatchObject({
      kind: "typed",
      typedText: "Form Signer",
      typedFont: "great-vibes",
      consentGiven: true,
      documentSha256: pkg.documents[0]!.sha256,
      idempotencyKey: formData.get("idempotencyKey"),
      ipAddress: "203.0.113.44",
      userAgent: "Mozilla/5.0 (Form test)",
    });
  });

  it("turns a double submission of one intent into one record and the same success twice", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "form-sign-3@example.test" }] });
    await consent("form-sign-3@example.test", pkg.id);
    const principal = await principalFor("form-sign-3@example.test");
    const formData = form({
      signingId: pkg.id,
      documentId: pkg.documents[0]!.id,
      documentSha256: pkg.documents[0]!.sha256,
      idempotencyKey: randomUUID(),
      kind: "drawn",
      imageDataUrl: pngDataUrl(40, 12),
    });
    const [a, b] = await Promise.all([
      handleSignForm(testDb.db, { principal, evidence, formData }),
      handleSignForm(testDb.db, { principal, evidence, formData }),
    ]);
    expect(a.status).toBe("signed");
    expect(b).toEqual(a);
    expect(await signaturesOn(pkg.documents[0]!.id)).toHaveLength(1);
  });

  it("says the lender changed the document when its hash no longer matches what the page showed", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "form-sign-4@example.test" }] });
    await consent("form-sign-4@example.test", pkg.id);
    const formData = typedSignForm(pkg);
    await testDb.db.update(packageDocuments).set({ sha256: "f".repeat(64) }).where(eq(packageDocuments.id, pkg.documents[0]!.id));
    const state = await handleSignForm(testDb.db, { principal: await principalFor("form-sign-4@example.test"), evidence, formData });
    expect(state).toEqual({
      status: "error",
      reason: "document_changed",
      message: "The lender changed this document after you opened it. Reload to see the new version.",
    });
    expect(await signaturesOn(pkg.documents[0]!.id)).toHaveLength(0);
  });

  it("explains that it is not the signer's turn while an earlier routing group has not signed", async () => {
    const pkg = await createSignerPackage(testDb.db, {
      location: world.austin,
      signers: [{ email: "form-first@example.test", routingOrder: 1 }, { email: "form-second@example.test", routingOrder: 2 }],
    });
    await consent("form-second@example.test", pkg.id);
    const state = await handleSignForm(testDb.db, { principal: await principalFor("form-second@example.test"), evidence, formData: typedSignForm(pkg) });
    expect(state).toMatchObject({ status: "error", reason: "out_of_turn" });
    expect(state.status === "error" && state.message).toMatch(/not your turn yet/);
    expect(await signaturesOn(pkg.documents[0]!.id)).toHaveLength(0);
  });

  it("answers malformed or foreign input with a sentence and records nothing", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "form-sign-5@example.test" }] });
    await consent("form-sign-5@example.test", pkg.id);
    const principal = await principalFor("form-sign-5@example.test");
    const badImage = await handleSignForm(testDb.db, {
      principal,
      evidence,
      formData: form({ signingId: pkg.id, documentId: pkg.documents[0]!.id, idempotencyKey: "k-1", kind: "drawn", imageDataUrl: "data:image/png;base64,AAAA" }),
    });
    expect(badImage).toMatchObject({ status: "error", reason: "invalid", message: expect.stringMatching(/drawn signature could not be read/) });
    const badFont = await handleSignForm(testDb.db, { principal, evidence, formData: typedSignForm(pkg, 0, { font: "comic-sans" }) });
    expect(badFont).toMatchObject({ status: "error", reason: "invalid", message: expect.stringMatching(/signature styles/) });
    const noKey = await handleSignForm(testDb.db, { principal, evidence, formData: typedSignForm(pkg, 0, { idempotencyKey: "" }) });
    expect(noKey).toMatchObject({ status: "error", reason: "invalid" });
    const strange = await handleSignForm(testDb.db, { principal: await principalFor("signer@demo.local"), evidence, formData: typedSignForm(pkg) });
    expect(strange).toMatchObject({ status: "error", reason: "refused", message: expect.stringMatching(/could not find/) });
    expect(await signaturesOn(pkg.documents[0]!.id)).toHaveLength(0);
  });
});
