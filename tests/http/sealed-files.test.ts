import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealedDocuments } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { sealPackage } from "@/lib/seals/seal-package";
import { callApi, fetchApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, pngDataUrl } from "../helpers/signing-fixtures";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "sealed-files-"));
let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined });
});
afterAll(async () => {
  await testDb.cleanup();
});

async function fetchBytes(path: string, email: string) {
  const response = await fetchApi(new Request(`http://core-api.test${path}`, { headers: { authorization: `Bearer ${await tokenFor(email)}` } }));
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe("sealed files over /v1", () => {
  it("signers and managers in scope download the sealed PDFs, the certificate and a ZIP of all; others get 404; 409 before sealing", async () => {
    const email = "sealed-files-signer@demo.local";
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: "Sealed files: Truck loan", documentCount: 2, signers: [{ email }] });
    const signerBase = `/v1/signing/signer/signings/${pkg.id}/sealed`;
    const managerBase = `/v1/signing/manager/signings/${pkg.id}`;

    const early = await callApi(`${signerBase}/all`, { token: await tokenFor(email) });
    expect(early.status).toBe(409);

    for (const doc of pkg.documents) {
      const res = await callApi(`/v1/signing/signer/signings/${pkg.id}/documents/${doc.id}/esignatures`, {
        method: "POST",
        token: await tokenFor(email),
        json: { kind: "drawn", imageDataUrl: pngDataUrl(30, 10), consent: true },
      });
      expect(res.status).toBe(201);
    }
    const pending = await callApi(`${signerBase}/certificate`, { token: await tokenFor(email) });
    expect(pending.status).toBe(409);
    expect(pending.body).toEqual({ error: expect.stringMatching(/not ready yet/) });
    expect((await callApi(`${managerBase}/seal`, { token: await tokenFor("manager@demo.local") })).body).toMatchObject({ status: "pending", documents: [] });

    await sealPackage(testDb.db, { packageId: pkg.id });
    const stored = await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, pkg.id));

    const seal = await callApi(`${managerBase}/seal`, { token: await tokenFor("manager@demo.local") });
    expect(seal.status).toBe(200);
    expect(seal.body).toMatchObject({ status: "sealed", lastError: null, documents: expect.any(Array) });
    expect((seal.body as { documents: { sha256: string }[] }).documents.map((d) => d.sha256).sort()).toEqual(stored.map((s) => s.sha256).sort());

    const retry = await callApi(`${managerBase}/seal/retry`, { method: "POST", token: await tokenFor("manager@demo.local") });
    expect(retry.status).toBe(202);
    expect(retry.body).toMatchObject({ status: "sealed" });

    for (const [who, base] of [
      [email, signerBase],
      ["manager@demo.local", `${managerBase}/sealed`],
    ] as const) {
      const doc = await fetchBytes(`${base}/${pkg.documents[0]!.id}`, who);
      expect(doc.status).toBe(200);
      expect(doc.headers.get("content-type")).toBe("application/pdf");
      expect(doc.headers.get("content-disposition")).toMatch(/^attachment; filename="Document 1 \(sealed\)\.pdf"/);
      expect(sha256(doc.bytes)).toBe(stored.find((s) => s.documentId === pkg.documents[0]!.id)!.sha256);

      const certificate = await fetchBytes(`${base}/certificate`, who);
      expect(certificate.status).toBe(200);
      writeFileSync(join(dir, "certificate.pdf"), certificate.bytes);
      expect((await run("pdfsig", [join(dir, "certificate.pdf")])).stdout).toMatch(/Signature is Valid/);

      const zip = await fetchBytes(`${base}/all`, who);
      expect(zip.status).toBe(200);
      expect(zip.headers.get("content-type")).toBe("application/zip");
      const entries = unzipSync(zip.bytes);
      expect(Object.keys(entries).sort()).toEqual(["Certificate of completion - Sealed files Truck loan.pdf", "Document 1 (sealed).pdf", "Document 2 (sealed).pdf"]);
      expect(sha256(entries["Document 2 (sealed).pdf"]!)).toBe(stored.find((s) => s.documentId === pkg.documents[1]!.id)!.sha256);
    }

    // Someone else: a signer of nothing here, and a manager whose scope is another branch.
    await createUser(testDb.db, "sealed-files-dallas@demo.local", [{ role: "manager", organizationId: world.dallas.organizationId, companyId: world.dallas.companyId, locationId: world.dallas.id }]);
    expect((await callApi(`${signerBase}/all`, { token: await tokenFor("signer@demo.local") })).status).toBe(404);
    expect((await callApi(`${managerBase}/sealed/all`, { token: await tokenFor("sealed-files-dallas@demo.local") })).status).toBe(404);
    expect((await callApi(`${signerBase}/not-a-document`, { token: await tokenFor(email) })).status).toBe(404);
  });
});
