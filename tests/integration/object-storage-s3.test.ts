import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentScans, fileObjects, packageDocuments, scanbackPages, sealedDocuments } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { sealPackageJob } from "@/lib/seals/seal-package-job";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { addPackageDocument } from "@/lib/signings/add-package-document";
import { readObject } from "@/lib/storage/objects";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { printToPngs } from "../helpers/ink-package";
import { createSignerPackage } from "../helpers/signing-fixtures";

// With S3 configured every file goes to the bucket: after a journey from upload to seal the database
// holds no file bytes at all, and downloads are presigned GETs the bucket answers.

let s3: RunningS3;
let testDb: TestDb;
let world: DemoWorld;
let client: S3Client;

beforeAll(async () => {
  s3 = await startS3rver();
  setEnvForTests({ ...s3.env, VAULT_WEBHOOK_URL: undefined });
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  client = new S3Client({
    region: "us-east-1",
    endpoint: s3.env.S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
});
afterAll(async () => {
  setEnvForTests({ S3_BUCKET: "" });
  await testDb.cleanup();
  await s3.stop();
});

async function bucketKeys(): Promise<string[]> {
  const listed = await client.send(new ListObjectsV2Command({ Bucket: "documents" }));
  return (listed.Contents ?? []).map((o) => o.Key!);
}

/** The rows of a raw query, from either driver (postgres.js answers an array, PGlite `{ rows }`). */
async function rowsOf<T>(query: ReturnType<typeof sql.raw>): Promise<T[]> {
  const result = (await testDb.db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** Sum of octet_length over every bytea column of every table: the file bytes the database holds. */
async function databaseFileBytes(): Promise<number> {
  const columns = await rowsOf<{ table_name: string; column_name: string }>(
    sql.raw("select table_name, column_name from information_schema.columns where table_schema = 'public' and data_type = 'bytea'"),
  );
  expect(columns.length).toBeGreaterThan(0);
  let total = 0;
  for (const column of columns) {
    const [row] = await rowsOf<{ n: string | number }>(sql.raw(`select coalesce(sum(octet_length("${column.column_name}")), 0)::bigint as n from "${column.table_name}"`));
    total += Number(row!.n);
  }
  return total;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const pngLogo = async () => new Uint8Array(await sharp({ create: { width: 40, height: 20, channels: 3, background: "navy" } }).png().toBuffer());

describe("file storage with S3 configured", () => {
  it("upload → send → sign → seal leaves no file bytes in the database; the sealed file downloads through a presigned GET", async () => {
    const email = "s3-journey@demo.local";
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: "S3 journey", signers: [{ email }] });
    const [document] = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, pkg.id));
    expect(document!.storageKey).toBe(`sha256/${document!.sha256}`);
    expect(await bucketKeys()).toContain(document!.storageKey);

    const signed = await callApi(`/v1/signing/signer/signings/${pkg.id}/documents/${pkg.documents[0]!.id}/esignatures`, {
      method: "POST",
      token: await tokenFor(email),
      json: { kind: "typed", text: "Sam Three", font: "great-vibes", consent: true },
    });
    expect(signed.status).toBe(201);
    const registry = createJobRegistry([sealPackageJob]);
    expect(await runDueJobs(testDb.db, { workerId: "s3-test", registry })).toMatchObject({ succeeded: 1 });

    const [sealed] = await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, pkg.id));
    const keys = await bucketKeys();
    expect(keys).toContain(sealed!.storageKey);
    expect(await testDb.db.select({ key: fileObjects.key }).from(fileObjects)).toEqual([]);
    expect(await databaseFileBytes()).toBe(0);

    // The permission check first: a stranger gets no URL.
    const stranger = await callApi(`/v1/signing/signer/signings/${pkg.id}/sealed/${pkg.documents[0]!.id}`, { token: await tokenFor("nobody@demo.local") });
    expect(stranger.status).not.toBe(302);
    expect(stranger.headers.get("location")).toBeNull();

    const download = await callApi(`/v1/signing/signer/signings/${pkg.id}/sealed/${pkg.documents[0]!.id}`, { token: await tokenFor(email) });
    expect(download.status).toBe(302);
    const location = download.headers.get("location")!;
    expect(location.startsWith(s3.env.S3_ENDPOINT!)).toBe(true);
    expect(new URL(location).searchParams.get("X-Amz-Expires")).toBe("300");
    const fetched = await fetch(location);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-type")).toBe("application/pdf");
    expect(fetched.headers.get("content-disposition")).toMatch(/^attachment; filename="Document 1 \(sealed\)\.pdf"/);
    expect(sha256(new Uint8Array(await fetched.arrayBuffer()))).toBe(sealed!.sha256);

    // The ZIP of everything is built on request from the bucket's objects and streamed.
    const zip = await callApi(`/v1/signing/signer/signings/${pkg.id}/sealed/all`, { token: await tokenFor(email) });
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
  });

  it("a whole journey by direct uploads (package, a scanback matched and accepted, chattel file, logo): upload by id → send → sign → seal; no file byte in the database, no staging object left", async () => {
    const manager = await tokenFor("manager@demo.local");
    /** POST /v1/uploads, then the presigned PUT straight to the bucket, exactly as answered. */
    async function uploaded(token: string, bytes: Uint8Array, name: string, contentType: string): Promise<string> {
      const res = await callApi("/v1/uploads", { method: "POST", token, json: { name, size: bytes.byteLength, contentType, sha256: sha256(bytes) } });
      expect(res.status, res.text).toBe(201);
      const { id, put } = res.body as { id: string; put: { url: string; headers: Record<string, string> } };
      expect(put.url.startsWith(s3.env.S3_ENDPOINT!)).toBe(true);
      const sent = await fetch(put.url, { method: "PUT", headers: put.headers, body: bytes as Uint8Array<ArrayBuffer> });
      expect(sent.status).toBe(200);
      return id;
    }
    const pdf = await renderAgreementPdf({ title: "Direct journey", parties: ["Borrower"], pages: 2 });
    const note = await renderAgreementPdf({ title: "Ink note", parties: ["Borrower"], pages: 1 });
    const email = "s3-direct-journey@demo.local";
    await createUser(testDb.db, email);
    const create = async (title: string, documents: { name: string; uploadId: string; executionMode?: string }[]) => {
      const res = await callApi("/v1/signing/manager/signings", { method: "POST", token: manager, json: { locationId: world.austin.id, title, signers: [{ name: "Dee Rect", email }], documents } });
      expect(res.status, res.text).toBe(201);
      const id = (res.body as { id: string }).id;
      expect((await callApi(`/v1/signing/manager/signings/${id}/send`, { method: "POST", token: manager })).status).toBe(200);
      return id;
    };
    const packageId = await create("Direct journey", [{ name: "Contract.pdf", uploadId: await uploaded(manager, pdf, "Contract.pdf", "application/pdf") }]);
    const [contract] = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, packageId));
    expect(contract!.sha256).toBe(sha256(pdf));

    // A hybrid closing's ink note: its table packet printed, the note's page (carrying the package's
    // code) scanned back straight to the bucket, matched to the note, and the scan accepted.
    const hybridId = await create("Direct journey, ink", [{ name: "Note.pdf", uploadId: await uploaded(manager, note, "Note.pdf", "application/pdf"), executionMode: "wet_sign" }]);
    const managerPrincipal = (await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local")))!;
    const packet = await getTablePacket(testDb.db, { principal: managerPrincipal, packageId: hybridId });
    const printDir = mkdtempSync(join(tmpdir(), "s3-scanback-"));
    const printed = await printToPngs(packet.content, printDir, "packet");
    expect(printed).toHaveLength(2); // the cover sheet, the note's one page
    const scanned = new Uint8Array(readFileSync(printed[1]!));
    rmSync(printDir, { recursive: true, force: true });
    const scans = await callApi(`/v1/signing/manager/signings/${hybridId}/scanbacks`, {
      method: "POST",
      token: manager,
      json: { uploadIds: [await uploaded(manager, scanned, "note-1.png", "image/png")] },
    });
    expect(scans.status, scans.text).toBe(201);
    const scanReport = scans.body as { pageCount: number; report: { pages: { status: string; documentName: string | null; pageNumber: number | null }[]; documents: { name: string; ready: boolean }[] } };
    expect(scanReport.pageCount).toBe(1);
    expect(scanReport.report.pages.map((p) => [p.status, p.documentName, p.pageNumber])).toEqual([["matched", "Note.pdf", 1]]);
    expect(scanReport.report.documents).toEqual([expect.objectContaining({ name: "Note.pdf", ready: true })]);
    const accepted = await callApi(`/v1/signing/manager/signings/${hybridId}/scanbacks/accept`, { method: "POST", token: manager, json: {} });
    expect(accepted.status, accepted.text).toBe(200);

    // A chattel document's file and the logo, by upload id too.
    const chattel = await callApi("/v1/documents", { method: "POST", token: manager, json: { type: "bill_of_sale", title: "Direct journey", locationId: world.austin.id } });
    const photo = new Uint8Array(await sharp({ create: { width: 64, height: 48, channels: 3, background: "gray" } }).jpeg().toBuffer());
    const file = await callApi(`/v1/documents/${(chattel.body as { id: string }).id}/files`, {
      method: "POST",
      token: manager,
      json: { uploadId: await uploaded(manager, photo, "photo.jpg", "image/jpeg") },
    });
    expect(file.status, file.text).toBe(201);
    const owner = await tokenFor("owner@demo.local");
    const logo = await callApi("/v1/workspace/settings/logo", { method: "PUT", token: owner, json: { uploadId: await uploaded(owner, await pngLogo(), "logo.png", "image/png") } });
    expect(logo.status, logo.text).toBe(200);

    // The signer signs; the package seals, into the bucket.
    const signed = await callApi(`/v1/signing/signer/signings/${packageId}/documents/${contract!.id}/esignatures`, {
      method: "POST",
      token: await tokenFor(email),
      json: { kind: "typed", text: "Dee Rect", font: "great-vibes", consent: true },
    });
    expect(signed.status, signed.text).toBe(201);
    const registry = createJobRegistry([sealPackageJob]);
    await runDueJobs(testDb.db, { workerId: "s3-direct-journey", registry });
    const [sealed] = await testDb.db.select().from(sealedDocuments).where(eq(sealedDocuments.packageId, packageId));
    expect(sealed).toBeDefined();

    const keys = await bucketKeys();
    expect(keys).toContain(`sha256/${sha256(pdf)}`);
    expect(keys).toContain(`sha256/${sha256(note)}`);
    expect(keys).toContain(sealed!.storageKey);
    const pages = await testDb.db.select({ key: scanbackPages.imageStorageKey }).from(scanbackPages).where(eq(scanbackPages.packageId, hybridId));
    expect(pages).toHaveLength(1);
    expect(keys).toContain(pages[0]!.key);
    expect(sha256(await readObject(testDb.db, pages[0]!.key))).toBe(sha256(scanned));
    const [noteScan] = await testDb.db.select().from(documentScans).where(eq(documentScans.packageId, hybridId));
    expect(keys).toContain(noteScan!.storageKey);
    expect(keys.filter((k) => k.startsWith("uploads/"))).toEqual([]);
    expect(await testDb.db.select({ key: fileObjects.key }).from(fileObjects)).toEqual([]);
    expect(await databaseFileBytes()).toBe(0);
  });

  it("the same PDF in two packages is one object", async () => {
    const a = await createSignerPackage(testDb.db, { location: world.austin, title: "Twin A", signers: [{ email: "twin-a@demo.local" }], status: "draft" });
    const b = await createSignerPackage(testDb.db, { location: world.austin, title: "Twin B", signers: [{ email: "twin-b@demo.local" }], status: "draft" });
    const [first] = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, a.id));
    const before = await bucketKeys();
    const manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
    const copy = await addPackageDocument(testDb.db, { principal: manager!, packageId: b.id, name: "Again.pdf", bytes: await readObject(testDb.db, first!.storageKey) });
    expect(copy.sha256).toBe(first!.sha256);
    const [again] = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.id, copy.id));
    expect(again!.storageKey).toBe(first!.storageKey);
    expect(await bucketKeys()).toEqual(before);
  });
});
