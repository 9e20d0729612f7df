import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyAction } from "@/app/verify/verify-action";
import { authThrottles, packageDocuments, packageSeals, sealedDocuments } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { sealPackage } from "@/lib/seals/seal-package";
import { verifySealedPdf } from "@/lib/seals/verify-sealed-pdf";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { inNextRequestScope } from "../helpers/next-request-scope";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { readObject } from "@/lib/storage/objects";

let testDb: TestDb;
let world: DemoWorld;
let sealed: { document: Uint8Array; certificate: Uint8Array; original: Uint8Array };
const TITLE = "Verify test: boat loan";

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined });
  const email = "verify-signer@demo.local";
  const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: TITLE, signers: [{ email }] });
  const res = await callApi(`/v1/signing/signer/signings/${pkg.id}/documents/${pkg.documents[0]!.id}/esignatures`, {
    method: "POST",
    token: await tokenFor(email),
    json: { kind: "typed", text: "Vera Signer", font: "caveat", consent: true },
  });
  expect(res.status).toBe(201);
  await sealPackage(testDb.db, { packageId: pkg.id });
  const [doc] = await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, pkg.id));
  const [seal] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, pkg.id));
  const [original] = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, pkg.id));
  sealed = {
    document: await readObject(testDb.db, doc!.storageKey),
    certificate: await readObject(testDb.db, seal!.certificateStorageKey!),
    original: await readObject(testDb.db, original!.storageKey),
  };
});
afterAll(async () => {
  await testDb.cleanup();
});

describe("verifySealedPdf", () => {
  it("recognises the sealed document and the certificate, unchanged, with the package title and the sealing time", async () => {
    const doc = await verifySealedPdf(testDb.db, { bytes: sealed.document });
    expect(doc).toMatchObject({ outcome: "sealed", packageTitle: TITLE, fileLabel: "Document 1.pdf" });
    expect(Date.now() - (doc as { sealedAt: Date }).sealedAt.getTime()).toBeLessThan(120_000);
    expect(await verifySealedPdf(testDb.db, { bytes: sealed.certificate })).toMatchObject({ outcome: "sealed", fileLabel: "Certificate of completion" });
  });

  it("one flipped byte, or bytes appended after sealing, is 'modified'; the unsealed original is 'not sealed'", async () => {
    const flipped = Uint8Array.from(sealed.document);
    flipped[500] = flipped[500]! ^ 0x20;
    expect(await verifySealedPdf(testDb.db, { bytes: flipped })).toMatchObject({ outcome: "modified", reason: "changed" });
    const appended = new Uint8Array([...sealed.document, ...new TextEncoder().encode("\n% appended after sealing\n")]);
    expect(await verifySealedPdf(testDb.db, { bytes: appended })).toMatchObject({ outcome: "modified", reason: "appended" });
    const result = await verifySealedPdf(testDb.db, { bytes: sealed.original });
    expect(result).toEqual({ outcome: "not_sealed", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it("refuses what is not a PDF, and a client past the limit", async () => {
    await expect(verifySealedPdf(testDb.db, { bytes: new TextEncoder().encode("hello") })).rejects.toMatchObject({ code: "bad_request" });
    await testDb.db.insert(authThrottles).values({ key: "verify-client:203.0.113.77", failures: 120, windowStartedAt: new Date(), lockedUntil: new Date(Date.now() + 60_000) });
    await expect(verifySealedPdf(testDb.db, { bytes: sealed.document, clientIp: "203.0.113.77" })).rejects.toMatchObject({ code: "too_many_requests" });
  });
});

describe("the /verify form action", () => {
  const submit = (file: unknown) => {
    const form = new FormData();
    if (file !== undefined) form.set("file", file as Blob);
    return inNextRequestScope(new Request("http://localhost:3000/verify", { method: "POST" }), () => verifyAction({ status: "idle" }, form));
  };

  it("answers with the outcome and only what the file prints; a missing or wrong file is an error, not a 500", async () => {
    const state = await submit(new File([Buffer.from(sealed.document)], "my copy.pdf", { type: "application/pdf" }));
    expect(state).toMatchObject({ status: "ok", fileName: "my copy.pdf", result: { outcome: "sealed", packageTitle: TITLE } });
    // The lender is what the file's certificate prints (its display name and logo), nothing more; the
    // trusted time is the file's own timestamp (none here: no TSA_URL in this test).
    expect(Object.keys((state as { result: object }).result).sort()).toEqual(["fileLabel", "lender", "outcome", "packageTitle", "sealedAt", "sha256", "transferableRecord", "trustedTime"]);
    expect(state).toMatchObject({ result: { trustedTime: null } });
    expect(Object.keys((state as { result: { lender: object } }).result.lender).sort()).toEqual(["color", "displayName", "logoPath"]);
    expect(await submit(undefined)).toEqual({ status: "error", message: "Choose a PDF file." });
    expect(await submit(new File(["not a pdf"], "notes.txt"))).toEqual({ status: "error", message: "This is not a PDF file." });
  });
});
