import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrateDb, openDb, type Db } from "@/db/client";
import { chattelDocumentFiles, fileObjects, organizationLogos, organizations } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { createChattelDocument } from "@/lib/chattel-documents/create-chattel-document";
import { setEnvForTests } from "@/lib/env";
import { objectKeyFor, putObject, readObject } from "@/lib/storage/objects";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";
import { createTestDb } from "../helpers/db";
import { loadDemoWorld } from "../helpers/fixtures";
import { createSignerPackage } from "../helpers/signing-fixtures";

// `npm run storage:migrate` killed for real: the script runs as a child process on a database full of
// files kept on the embedded default, is SIGKILLed once some (not all) of them are in the bucket, and
// is run again to completion. Nothing is lost, nothing is stored twice, no table keeps file bytes, and
// a third run has nothing to do. The child is `node --import tsx scripts/storage-migrate.ts`, one
// process (the tsx CLI would run the script in a grandchild a kill of the CLI does not reach). On
// PostgreSQL (TEST_DATABASE_URL) the test keeps its connection while the child runs; on PGlite (one
// owner process) the test opens the data directory only while no child runs.

const ROOT = resolve(import.meta.dirname, "../..");
const SCRIPT = "scripts/storage-migrate.ts";
/** Objects written on the embedded default before the move (besides the package's documents). */
const LOOSE_OBJECTS = 48;
/** Chattel files written before files were objects, their bytes inline in the row. */
const INLINE_CHATTEL_FILES = 6;
/**
 * The child is killed once this many objects are in the bucket: well past its start, far from its
 * end. The migrator puts the next object only after the database let go of the previous one, so k
 * objects in the bucket means at least k − 1 moved; and s3rver runs in this test's process, so the
 * child cannot outrun the poll (each of its requests waits on the event loop that polls).
 */
const KILL_AT_OBJECTS = 6;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let s3: RunningS3;
let client: S3Client;
const children: ChildProcess[] = [];

/** Where the files are kept before the move: the child's environment, and the database for the test between runs. */
type Target = { env: Record<string, string>; withDb: <T>(fn: (db: Db) => Promise<T>) => Promise<T> };

beforeEach(async () => {
  s3 = await startS3rver();
  client = new S3Client({ region: "us-east-1", endpoint: s3.env.S3_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  setEnvForTests({ S3_BUCKET: "" });
});
afterEach(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  setEnvForTests({ S3_BUCKET: "" });
  await s3.stop();
});

type Listing = { key: string; etag: string; lastModified: number }[];

async function listBucket(): Promise<Listing> {
  const listing: Listing = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: "documents", ContinuationToken: token }));
    for (const o of page.Contents ?? []) listing.push({ key: o.Key!, etag: o.ETag ?? "", lastModified: o.LastModified?.getTime() ?? 0 });
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return listing.sort((a, b) => a.key.localeCompare(b.key));
}

async function bucketBytes(key: string): Promise<Uint8Array> {
  const object = await client.send(new GetObjectCommand({ Bucket: "documents", Key: key }));
  return object.Body!.transformToByteArray();
}

/** The rows of a raw query, from either driver (postgres.js answers an array, PGlite `{ rows }`). */
async function rowsOf<T>(db: Db, query: ReturnType<typeof sql.raw>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/** Sum of octet_length over every bytea column of every table: the file bytes the database holds. */
async function databaseFileBytes(db: Db): Promise<number> {
  const columns = await rowsOf<{ table_name: string; column_name: string }>(
    db,
    sql.raw("select table_name, column_name from information_schema.columns where table_schema = 'public' and data_type = 'bytea'"),
  );
  expect(columns.length).toBeGreaterThan(0);
  let total = 0;
  for (const column of columns) {
    const [row] = await rowsOf<{ n: string | number }>(db, sql.raw(`select coalesce(sum(octet_length("${column.column_name}")), 0)::bigint as n from "${column.table_name}"`));
    total += Number(row!.n);
  }
  return total;
}

type Run = { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> };

/** Starts `scripts/storage-migrate.ts` on the test database and the bucket, as `npm run storage:migrate` would. */
function startMigration(target: Target): Run {
  const env: NodeJS.ProcessEnv = { ...process.env, ...s3.env, ...target.env, NODE_ENV: "test", LOG_LEVEL: "silent" };
  for (const key of Object.keys(env)) if (key.startsWith("INNGEST_") || key.startsWith("CLERK_") || (key === "DATABASE_URL" && !target.env.DATABASE_URL)) delete env[key];
  const child = spawn(process.execPath, ["--import", "tsx", SCRIPT], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolveDone) => {
    child.once("exit", (code, signal) => resolveDone({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

async function runToCompletion(target: Target): Promise<{ objects: number; chattelFiles: number; logos: number }> {
  const result = await startMigration(target).done;
  expect(result.code, `storage:migrate exited ${result.code ?? result.signal}: ${result.stderr}`).toBe(0);
  const match = /storage:migrate done: (\d+) document objects, (\d+) chattel files, (\d+) logos moved to S3/.exec(result.stdout);
  expect(match, result.stdout).not.toBeNull();
  return { objects: Number(match![1]), chattelFiles: Number(match![2]), logos: Number(match![3]) };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Seeds the target with files on the embedded default, kills a run of the script midway, runs it
 * again to completion and a third time, and checks what is where after each.
 */
async function killMidwayAndResume(target: Target) {
  const { seeded, originals, legacyFiles, logos, chattelId } = await target.withDb(async (db) => {
    const world = await loadDemoWorld(db);
    // On the embedded default: a package's documents, and many other objects (distinct bytes).
    await createSignerPackage(db, { location: world.austin, title: "Before the move", documentCount: 3, signers: [{ email: "before-move@demo.local" }] });
    for (let i = 0; i < LOOSE_OBJECTS; i += 1) {
      await putObject(db, { bytes: new Uint8Array(randomBytes(16 * 1024 + i)), contentType: "application/octet-stream" });
    }

    // Chattel files from before files were objects: inline in their rows, and one in the bucket under a per-row key.
    const manager = (await resolvePrincipal(db, localSubjectForEmail("manager@demo.local")))!;
    const chattel = await createChattelDocument(db, {
      principal: manager,
      locationId: world.austin.id,
      fields: { type: "certificate_of_title", title: "Old files", borrowerName: "Sam Signer", borrowerEmail: "sam@example.com", dealerContacts: [] },
    });
    const legacyFiles: { name: string; bytes: Uint8Array }[] = [];
    for (let i = 0; i < INLINE_CHATTEL_FILES; i += 1) {
      const bytes = new Uint8Array(randomBytes(8 * 1024 + i));
      legacyFiles.push({ name: `inline-${i}.pdf`, bytes });
      await db.insert(chattelDocumentFiles).values({
        chattelDocumentId: chattel.id,
        fileName: `inline-${i}.pdf`,
        contentType: "application/pdf",
        sizeBytes: bytes.byteLength,
        sha256: sha256(bytes),
        storage: "database",
        content: bytes,
      });
    }
    const perRow = new Uint8Array(randomBytes(12 * 1024));
    const perRowKey = `documents/${chattel.id}/per-row.pdf`;
    await client.send(new PutObjectCommand({ Bucket: "documents", Key: perRowKey, Body: perRow, ContentType: "application/pdf" }));
    legacyFiles.push({ name: "per-row.pdf", bytes: perRow });
    await db.insert(chattelDocumentFiles).values({
      chattelDocumentId: chattel.id,
      fileName: "per-row.pdf",
      contentType: "application/pdf",
      sizeBytes: perRow.byteLength,
      sha256: sha256(perRow),
      storage: "s3",
      storageKey: perRowKey,
    });
    // A chattel file already an object, on the embedded default: its row says "database" until the object moves.
    const asObject = await putObject(db, { bytes: new Uint8Array(randomBytes(10 * 1024)), contentType: "application/pdf" });
    await db.insert(chattelDocumentFiles).values({
      chattelDocumentId: chattel.id,
      fileName: "as-object.pdf",
      contentType: "application/pdf",
      sizeBytes: asObject.sizeBytes,
      sha256: asObject.sha256,
      storage: "database",
      storageKey: asObject.storageKey,
    });

    // Every organization's logo from before logos were objects: inline bytes.
    const orgs = await db.select({ id: organizations.id }).from(organizations);
    expect(orgs.length).toBeGreaterThan(0);
    const logos = new Map<number, Uint8Array>();
    for (const [i, org] of orgs.entries()) {
      const bytes = new Uint8Array(await sharp({ create: { width: 40 + i, height: 20, channels: 3, background: { r: 10 * i, g: 80, b: 160 } } }).png().toBuffer());
      logos.set(org.id, bytes);
      await db
        .insert(organizationLogos)
        .values({ organizationId: org.id, contentType: "image/png", width: 40 + i, height: 20, sizeBytes: bytes.byteLength, sha256: sha256(bytes), storage: "database", content: bytes })
        .onConflictDoUpdate({ target: organizationLogos.organizationId, set: { sizeBytes: bytes.byteLength, sha256: sha256(bytes), storage: "database", storageKey: null, content: bytes } });
    }

    const seeded = await db.select({ key: fileObjects.key, content: fileObjects.content }).from(fileObjects);
    expect(seeded.length).toBeGreaterThanOrEqual(LOOSE_OBJECTS + 4);
    const originals = new Map<string, Uint8Array>(seeded.map((o) => [o.key, o.content]));
    for (const file of legacyFiles) originals.set(objectKeyFor(sha256(file.bytes)), file.bytes);
    for (const bytes of logos.values()) originals.set(objectKeyFor(sha256(bytes)), bytes);
    expect(originals.size).toBe(seeded.length + legacyFiles.length + logos.size);
    return { seeded, originals, legacyFiles, logos, chattelId: chattel.id };
  });

  // The first run, SIGKILLed once some of the objects are in the bucket.
  setEnvForTests(s3.env);
  const first = startMigration(target);
  const deadline = Date.now() + 120_000;
  while (first.child.exitCode === null && first.child.signalCode === null) {
    if ((await listBucket()).filter((o) => o.key.startsWith("sha256/")).length >= KILL_AT_OBJECTS) {
      first.child.kill("SIGKILL");
      break;
    }
    if (Date.now() > deadline) throw new Error("storage:migrate put nothing in the bucket within 120 s");
    await sleep(10);
  }
  const killed = await first.done;
  expect(killed.signal, `the first run ended on its own before it was killed: ${killed.stdout}${killed.stderr}`).toBe("SIGKILL");
  expect(killed.stdout).not.toMatch(/storage:migrate done/);

  // Killed midway: some objects moved, the rest still in the database; every file still reads from wherever it is.
  const left = await target.withDb(async (db) => {
    for (const { key, content } of seeded) expect(sha256(await readObject(db, key))).toBe(sha256(content));
    return (await db.select({ key: fileObjects.key }).from(fileObjects)).map((o) => o.key);
  });
  expect(left.length).toBeGreaterThan(0);
  expect(left.length).toBeLessThan(seeded.length);

  // The second run finishes the move: the objects the first left, then the old chattel files and logos.
  expect(await runToCompletion(target)).toEqual({ objects: left.length, chattelFiles: legacyFiles.length, logos: logos.size });

  // Every file is in the bucket exactly once, under the key of its SHA-256, with those bytes; the per-row object is gone.
  const listing = await listBucket();
  expect(listing.map((o) => o.key)).toEqual([...originals.keys()].sort());
  for (const { key } of listing) {
    const bytes = await bucketBytes(key);
    expect(`sha256/${sha256(bytes)}`).toBe(key);
    expect(sha256(bytes)).toBe(sha256(originals.get(key)!));
  }

  // No table holds file bytes: no objects, no inline bytes; every row points at its object in the bucket.
  await target.withDb(async (db) => {
    expect(await db.select({ key: fileObjects.key }).from(fileObjects)).toEqual([]);
    expect(await databaseFileBytes(db)).toBe(0);
    const files = await db.select().from(chattelDocumentFiles).where(eq(chattelDocumentFiles.chattelDocumentId, chattelId));
    expect(files).toHaveLength(legacyFiles.length + 1);
    for (const file of files) {
      expect(file).toMatchObject({ storage: "s3", storageKey: objectKeyFor(file.sha256), content: null });
      expect(sha256(await readObject(db, file.storageKey!))).toBe(file.sha256);
    }
    const logoRows = await db.select().from(organizationLogos);
    expect(logoRows).toHaveLength(logos.size);
    for (const logo of logoRows) {
      expect(logo).toMatchObject({ storage: "s3", storageKey: objectKeyFor(sha256(logos.get(logo.organizationId)!)), content: null });
    }
  });

  // A third run finds nothing to do and writes nothing.
  expect(await runToCompletion(target)).toEqual({ objects: 0, chattelFiles: 0, logos: 0 });
  expect(await listBucket()).toEqual(listing);
}

const TITLE = "killed midway and run again: every file in the bucket once, by its SHA-256; no file bytes in the database; a third run does nothing";

describe("npm run storage:migrate, killed with SIGKILL", () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    `PostgreSQL: ${TITLE}`,
    async () => {
      const testDb = await createTestDb({ install: false });
      try {
        await killMidwayAndResume({ env: { DATABASE_URL: testDb.url! }, withDb: (fn) => fn(testDb.db) });
      } finally {
        await testDb.cleanup();
      }
    },
    300_000,
  );

  it(
    `PGlite (PGLITE_DIR): ${TITLE}`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "csig-migrate-kill-"));
      const dataDir = join(dir, "pglite");
      try {
        const created = await openDb({ pgliteDir: dataDir });
        await migrateDb(created);
        await created.close();
        // The test opens the directory only while no child does (PGlite has one owner process).
        const withDb = async <T>(fn: (db: Db) => Promise<T>): Promise<T> => {
          const handle = await openDb({ pgliteDir: dataDir });
          try {
            return await fn(handle.db);
          } finally {
            await handle.close();
          }
        };
        await killMidwayAndResume({ env: { PGLITE_DIR: dataDir }, withDb });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    300_000,
  );
});
