import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { chattelDocumentFiles, fileObjects } from "@/db/schema";
import { sniffFileType } from "@/lib/chattel-documents/sniff-file-type";
import { setEnvForTests } from "@/lib/env";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ErrorBody } from "../helpers/schemas";
import { download, JPEG_BYTES, PDF_BYTES, PNG_BYTES, uploadFile } from "../helpers/upload";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";

const FileMeta = z.strictObject({
  id: z.uuid(),
  documentId: z.uuid(),
  fileName: z.string(),
  contentType: z.enum(["application/pdf", "image/png", "image/jpeg"]),
  sizeBytes: z.number().int(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  storage: z.enum(["database", "s3"]),
  uploadedByUserId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});
const FileList = z.strictObject({ data: z.array(FileMeta), nextCursor: z.string().nullable() });

let testDb: TestDb;
let world: DemoWorld;
let s3: RunningS3;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  s3 = await startS3rver();
});
afterAll(async () => {
  setEnvForTests({ S3_BUCKET: "" });
  await s3.stop();
  await testDb.cleanup();
});

async function countFiles(): Promise<number> {
  const [row] = await testDb.db.select({ n: sql<number>`count(*)::int` }).from(chattelDocumentFiles);
  return row!.n;
}

async function newDocument(email = "manager@demo.local", locationId = world.austin.id): Promise<string> {
  const res = await callApi("/v1/documents", { method: "POST", token: await tokenFor(email), json: { type: "bill_of_sale", title: "Files", locationId } });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

describe.each(["database", "s3"] as const)("files on %s storage", (backend) => {
  beforeAll(() => {
    setEnvForTests(backend === "s3" ? s3.env : { S3_BUCKET: "" });
  });

  it.each([
    ["PDF", PDF_BYTES, "application/pdf"],
    ["PNG", PNG_BYTES, "image/png"],
    ["JPEG", JPEG_BYTES, "image/jpeg"],
  ] as const)("uploads a %s (type sniffed, SHA-256 stored) and downloads the same bytes", async (_, bytes, type) => {
    const docId = await newDocument();
    const token = await tokenFor("manager@demo.local");
    // The declared Content-Type is deliberately wrong: only the bytes count.
    const res = await uploadFile(`/v1/documents/${docId}/files`, { token, bytes, fileName: "../scan\u0000 \"1\".bin", contentType: "text/plain" });
    expect(res.status, res.text).toBe(201);
    const meta = FileMeta.parse(res.body);
    expect(meta).toMatchObject({ documentId: docId, contentType: type, sizeBytes: bytes.byteLength, sha256: sha(bytes), storage: backend });
    expect(meta.fileName).toBe("scan 1.bin");
    const [row] = await testDb.db.select().from(chattelDocumentFiles).where(eq(chattelDocumentFiles.id, meta.id));
    expect(row!.storage).toBe(backend);
    // The object of its SHA-256 (the bucket, or file_objects on the embedded default), not bytes in the row.
    expect(row).toMatchObject({ content: null, storageKey: `sha256/${sha(bytes)}` });
    if (backend === "database") expect(await testDb.db.select({ key: fileObjects.key }).from(fileObjects).where(eq(fileObjects.key, row!.storageKey!))).toHaveLength(1);

    let got = await download(`/v1/documents/${docId}/files/${meta.id}`, token);
    if (backend === "s3") {
      // In the bucket: a presigned GET of a few minutes answers with the same type and disposition.
      expect(got.status).toBe(302);
      const location = got.headers.get("location")!;
      expect(location.startsWith(s3.env.S3_ENDPOINT!)).toBe(true);
      expect(new URL(location).searchParams.get("X-Amz-Expires")).toBe("300");
      const fetched = await fetch(location);
      got = { status: fetched.status, headers: fetched.headers, bytes: new Uint8Array(await fetched.arrayBuffer()) };
    } else {
      expect(got.headers.get("x-content-type-options")).toBe("nosniff");
    }
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toBe(type);
    expect(got.headers.get("content-disposition")).toMatch(/^attachment; filename="scan 1.bin"/);
    expect(sha(got.bytes)).toBe(meta.sha256);

    const list = FileList.parse((await callApi(`/v1/documents/${docId}/files`, { token })).body);
    expect(list.data).toEqual([meta]);
  });

  it("deletes a file: 204, then 404 on download; the stored object is gone", async () => {
    const docId = await newDocument();
    const token = await tokenFor("manager@demo.local");
    const meta = FileMeta.parse((await uploadFile(`/v1/documents/${docId}/files`, { token, bytes: PDF_BYTES })).body);
    const res = await callApi(`/v1/documents/${docId}/files/${meta.id}`, { method: "DELETE", token });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await download(`/v1/documents/${docId}/files/${meta.id}`, token)).status).toBe(404);
    expect((await callApi(`/v1/documents/${docId}/files/${meta.id}`, { method: "DELETE", token })).status).toBe(404);
  });

  it("deleting the document deletes its files", async () => {
    const docId = await newDocument();
    const token = await tokenFor("manager@demo.local");
    await uploadFile(`/v1/documents/${docId}/files`, { token, bytes: PNG_BYTES });
    expect((await callApi(`/v1/documents/${docId}`, { method: "DELETE", token })).status).toBe(204);
    const rows = await testDb.db.select().from(chattelDocumentFiles).where(eq(chattelDocumentFiles.chattelDocumentId, docId));
    expect(rows).toEqual([]);
  });
});

describe("refusals: nothing stored", () => {
  beforeAll(() => {
    setEnvForTests({ S3_BUCKET: "" });
  });

  it.each([
    ["text claiming to be a PDF", new TextEncoder().encode("hello, not a pdf"), "application/pdf"],
    ["a GIF", new TextEncoder().encode("GIF89a...."), "image/gif"],
    ["an empty file", new Uint8Array(0), "application/pdf"],
    ["a truncated PNG signature", PNG_BYTES.subarray(0, 4), "image/png"],
  ])("%s: 400", async (_, bytes, contentType) => {
    const docId = await newDocument();
    const before = await countFiles();
    const res = await uploadFile(`/v1/documents/${docId}/files`, { token: await tokenFor("manager@demo.local"), bytes, contentType });
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
    expect(await countFiles()).toBe(before);
  });

  it("a file over 10 MiB: 413", async () => {
    const docId = await newDocument();
    const before = await countFiles();
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set(PDF_BYTES);
    const res = await uploadFile(`/v1/documents/${docId}/files`, { token: await tokenFor("manager@demo.local"), bytes: big });
    expect(res.status).toBe(413);
    expect(ErrorBody.parse(res.body).error).toBe("The file is 10485761 bytes; the limit is 10 MiB (10485760 bytes).");
    const huge = new Uint8Array(11 * 1024 * 1024);
    huge.set(PDF_BYTES);
    expect((await uploadFile(`/v1/documents/${docId}/files`, { token: await tokenFor("manager@demo.local"), bytes: huge })).status).toBe(413);
    expect(await countFiles()).toBe(before);
  });

  it("no file part, or a JSON body: 400", async () => {
    const docId = await newDocument();
    const token = await tokenFor("manager@demo.local");
    expect((await uploadFile(`/v1/documents/${docId}/files`, { token, bytes: PDF_BYTES, field: "document" })).status).toBe(400);
    const json = await callApi(`/v1/documents/${docId}/files`, { method: "POST", token, json: { file: "x" } });
    expect(json.status).toBe(400);
    ErrorBody.parse(json.body);
  });

  it("role matrix: signer 403, admin 403 on writes, other org 404, admin reads", async () => {
    const docId = await newDocument();
    const ownerToken = await tokenFor("manager@demo.local");
    const meta = FileMeta.parse((await uploadFile(`/v1/documents/${docId}/files`, { token: ownerToken, bytes: PDF_BYTES })).body);
    const before = await countFiles();
    for (const [email, status] of [
      ["signer@demo.local", 403],
      ["admin@demo.local", 403],
      ["manager@other.local", 404],
    ] as const) {
      const token = await tokenFor(email);
      expect((await uploadFile(`/v1/documents/${docId}/files`, { token, bytes: PDF_BYTES })).status, email).toBe(status);
      expect((await callApi(`/v1/documents/${docId}/files/${meta.id}`, { method: "DELETE", token })).status, email).toBe(status);
    }
    expect(await countFiles()).toBe(before);
    for (const [email, status] of [
      ["signer@demo.local", 403],
      ["manager@other.local", 404],
      ["admin@demo.local", 200],
      ["owner@demo.local", 200],
    ] as const) {
      const token = await tokenFor(email);
      expect((await callApi(`/v1/documents/${docId}/files`, { token })).status, email).toBe(status);
      expect((await download(`/v1/documents/${docId}/files/${meta.id}`, token)).status, email).toBe(status);
    }
    const otherDoc = await newDocument("manager@other.local", world.tulsa.id);
    expect((await download(`/v1/documents/${otherDoc}/files/${meta.id}`, await tokenFor("manager@other.local"))).status).toBe(404);
  });

  it("fuzz: arbitrary bytes never 5xx and are stored only when sniffed as PDF/PNG/JPEG", async () => {
    const docId = await newDocument();
    const token = await tokenFor("manager@demo.local");
    const magic = fc.constantFrom(PDF_BYTES.subarray(0, 5), PNG_BYTES.subarray(0, 8), JPEG_BYTES.subarray(0, 3), new Uint8Array(0));
    await fc.assert(
      fc.asyncProperty(fc.tuple(magic, fc.uint8Array({ maxLength: 64 })).map(([head, tail]) => new Uint8Array([...head, ...tail])), fc.string({ maxLength: 40 }), async (bytes, name) => {
        const res = await uploadFile(`/v1/documents/${docId}/files`, { token, bytes, fileName: name || "x" });
        const sniffed = sniffFileType(bytes);
        expect(res.status).toBe(sniffed ? 201 : 400);
        if (sniffed) expect(FileMeta.parse(res.body).contentType).toBe(sniffed.contentType);
      }),
      { numRuns: 40 },
    );
  });
});
