import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageSeals, sealedDocuments } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { sealPackage } from "@/lib/seals/seal-package";
import { verifySealedPdf } from "@/lib/seals/verify-sealed-pdf";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, loadManagerWorld } from "../helpers/manager";
import { createSignerPackage, pngDataUrl } from "../helpers/signing-fixtures";
import { readObject } from "@/lib/storage/objects";

// The lender's brand on the sealed record: the certificate of completion (colour band, logo, display
// name) and what /verify answers for a sealed file.

const run = promisify(execFile);
let testDb: TestDb;
let dir: string;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined });
  dir = mkdtempSync(join(tmpdir(), "csig-branded-seal-"));
});
afterAll(async () => {
  await testDb.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function sealOnePackage(title: string, email: string) {
  const pkg = await createSignerPackage(testDb.db, { location: world.austin, title, signers: [{ email }] });
  const res = await callApi(`/v1/signing/signer/signings/${pkg.id}/documents/${pkg.documents[0]!.id}/esignatures`, {
    method: "POST",
    token: await tokenFor(email),
    json: { kind: "typed", text: "Bea Borrower", font: "caveat", consent: true },
  });
  expect(res.status).toBe(201);
  expect(await sealPackage(testDb.db, { packageId: pkg.id })).toMatchObject({ outcome: "sealed" });
  const [document] = await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, pkg.id));
  const [seal] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, pkg.id));
  return { document: await readObject(testDb.db, document!.storageKey), certificate: await readObject(testDb.db, seal!.certificateStorageKey!) };
}

async function pdfText(bytes: Uint8Array, name: string): Promise<string> {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return (await run("pdftotext", ["-layout", file, "-"])).stdout;
}

async function imageCount(bytes: Uint8Array, name: string): Promise<number> {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  const { stdout } = await run("pdfimages", ["-list", file]);
  // Two header lines, then one line per image.
  return stdout.trim().split("\n").length - 2;
}

describe("the sealed record carries the lender's brand", () => {
  it("without a brand: the organization's name, no logo; /verify names the organization", async () => {
    const sealed = await sealOnePackage("Plain seal: boat loan", "plain-borrower@example.com");
    const text = await pdfText(sealed.certificate, "plain.pdf");
    expect(text).toMatch(/For Demo Lending Co\. · sealed .* by Closing & Signing/);
    expect(await imageCount(sealed.certificate, "plain.pdf")).toBe(0);
    expect(await verifySealedPdf(testDb.db, { bytes: sealed.document })).toMatchObject({
      outcome: "sealed",
      lender: { displayName: "Demo Lending Co.", logoPath: null },
    });
  });

  it("with a display name, a colour and an uploaded logo: all three on the certificate and in /verify's answer", async () => {
    const patch = await as("owner@demo.local", "/v1/workspace/settings", {
      method: "PATCH",
      json: { branding: { displayName: "Lone Star Auto Credit", brandColor: "#0f5132" } },
    });
    expect(patch.status).toBe(200);
    const logo = new Uint8Array(Buffer.from(pngDataUrl(120, 40).split(",")[1]!, "base64"));
    const put = await as("owner@demo.local", "/v1/workspace/settings/logo", {
      method: "PUT",
      body: new Blob([logo as Uint8Array<ArrayBuffer>]),
      headers: { "content-type": "image/png" },
    });
    expect(put.status).toBe(200);

    const sealed = await sealOnePackage("Branded seal: truck loan", "branded-borrower@example.com");
    for (const [bytes, name] of [
      [sealed.certificate, "certificate.pdf"],
      [sealed.document, "document.pdf"],
    ] as const) {
      const text = await pdfText(bytes, name);
      expect(text).toMatch(/For Lone Star Auto Credit · sealed .* by Closing & Signing/);
      expect(text).toContain("Organization: Lone Star Auto Credit (Demo Lending Co.)");
      // The logo is the certificate's one image (the sealed document's own pages have none).
      expect(await imageCount(bytes, name)).toBe(1);
    }
    const verified = await verifySealedPdf(testDb.db, { bytes: sealed.certificate });
    expect(verified).toMatchObject({
      outcome: "sealed",
      fileLabel: "Certificate of completion",
      lender: { displayName: "Lone Star Auto Credit", color: "#0f5132", logoPath: expect.stringMatching(/^\/branding\/\d+\/logo\?v=[0-9a-f]{16}$/) },
    });
  });
});
