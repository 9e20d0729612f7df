import { asc, eq } from "drizzle-orm";
import { Zip, ZipPassThrough } from "fflate";
import type { Db } from "@/db/client";
import { objectDownload, openObject, readObject, type OpenedObject, type StoredDownload } from "@/lib/storage/objects";
import { organizations, packageDocuments, packageSeals, sealedDocuments, transferableRecords, type SigningPackage } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { markCopy } from "@/lib/transferable-records/mark-copy";
import { hasCapability, requireCapability, type Principal } from "@/lib/auth/principal";
import { AppError, Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";

/** A sealed document (its id), the certificate of completion, or everything as one ZIP. */
export type SealedFileTarget = "all" | "certificate" | (string & {});

export type GetSealedFileOptions = {
  principal: Principal;
  packageId: string;
  file: SealedFileTarget;
  /**
   * Whose view: a signer of the package, a manager whose scope holds it, or either (the session
   * routes, used by both; a manager who is also a signer of a package outside their scope still gets it).
   */
  as: "signer" | "manager" | "any";
};

/** A sealed file the caller may download: a document or the certificate in storage, or the ZIP of everything. */
export type SealedFile = StoredDownload;

export const SEAL_NOT_READY_MESSAGE = "The sealed documents are not ready yet. They are produced shortly after the last signature; try again in a moment.";

/**
 * The bytes of a sealed package's files for someone entitled to the package: its signers and the
 * managers whose scope holds it (the same checks as the original documents). 409 while the seal is
 * pending or failed, 404 for anything else the caller may not see.
 */
export async function getSealedFile(db: Db, options: GetSealedFileOptions): Promise<SealedFile> {
  const signing = await authorize(db, options);
  const [seal] = await db.select().from(packageSeals).where(eq(packageSeals.packageId, signing.id)).limit(1);
  if (!seal) throw Conflict("This signing package is not complete, so it has no sealed documents.");
  if (seal.status !== "sealed" || !seal.certificateStorageKey) throw Conflict(SEAL_NOT_READY_MESSAGE);
  const base = safeBaseName(signing.title) || "Signing package";
  const certificateName = `Certificate of completion - ${base}.pdf`;

  if (options.file === "certificate") {
    const key = seal.certificateStorageKey;
    return objectDownload(db, { fileName: certificateName, contentType: "application/pdf", sha256: seal.certificateSha256!, storageKey: key });
  }
  const rows = await db
    .select({
      documentId: sealedDocuments.documentId,
      name: packageDocuments.name,
      storageKey: sealedDocuments.storageKey,
      sha256: sealedDocuments.sha256,
      recordId: transferableRecords.id,
      recordStatus: transferableRecords.status,
      controllerName: organizations.name,
    })
    .from(sealedDocuments)
    .innerJoin(packageDocuments, eq(packageDocuments.id, sealedDocuments.documentId))
    .leftJoin(transferableRecords, eq(transferableRecords.documentId, sealedDocuments.documentId))
    .leftJoin(organizations, eq(organizations.id, transferableRecords.controllerOrganizationId))
    .where(eq(sealedDocuments.packageId, signing.id))
    .orderBy(asc(packageDocuments.position), asc(packageDocuments.createdAt), asc(packageDocuments.id));
  const named = uniqueNames(rows.map((r) => `${safeBaseName(r.name.replace(/\.pdf$/i, "")) || "Document"} (sealed).pdf`));

  if (options.file === "all") {
    const certificateKey = seal.certificateStorageKey;
    const entries = [
      ...rows.map((row, i) => ({ name: named[i]!, open: () => openSealed(db, row) })),
      { name: uniqueNames([...named, certificateName]).at(-1)!, open: () => openObject(db, certificateKey) },
    ];
    const stream = () => zipStream(entries, seal.sealedAt ?? new Date());
    return {
      fileName: `${base} (sealed).zip`,
      contentType: "application/zip",
      sha256: null,
      storageKey: null,
      stream,
      read: async () => new Uint8Array(await new Response(stream()).arrayBuffer()),
    };
  }
  const index = isUuid(options.file) ? rows.findIndex((r) => r.documentId === options.file) : -1;
  if (index < 0) throw NotFound(`Sealed document ${options.file.slice(0, 64)} not found.`);
  const row = rows[index]!;
  // A transferable record's sealed PDF is its authoritative copy: what is downloaded here is a marked copy, built on request.
  if (row.recordId) {
    return { fileName: named[index]!.replace(/\(sealed\)\.pdf$/, "(copy).pdf"), contentType: "application/pdf", sha256: null, storageKey: null, read: () => readSealed(db, row) };
  }
  return objectDownload(db, { fileName: named[index]!, contentType: "application/pdf", sha256: row.sha256, storageKey: row.storageKey });
}

type SealedRow = { storageKey: string; recordId: string | null; recordStatus: "active" | "paper_out" | null; controllerName: string | null };

/**
 * A sealed document's bytes as downloaded: the sealed PDF itself, or, for a transferable record,
 * a copy marked COPY on every page with where the authoritative copy is held (the authoritative copy
 * only leaves through the controller's eVault, `getAuthoritativeCopy`).
 */
async function readSealed(db: Db, row: SealedRow): Promise<Uint8Array> {
  const bytes = await readObject(db, row.storageKey);
  if (!row.recordId) return bytes;
  return markCopy(bytes, {
    recordId: row.recordId,
    controllerName: row.controllerName ?? "its controlling organization",
    status: row.recordStatus ?? "active",
    verifyUrl: new URL("/verify", getEnv().APP_URL).toString(),
  });
}

/** A ZIP entry's bytes: streamed from storage, or the marked copy of a transferable record (built whole). */
async function openSealed(db: Db, row: SealedRow): Promise<OpenedObject> {
  if (!row.recordId) return openObject(db, row.storageKey);
  const bytes = await readSealed(db, row);
  return { sizeBytes: bytes.length, stream: new Blob([bytes as Uint8Array<ArrayBuffer>]).stream() };
}

async function authorize(db: Db, options: GetSealedFileOptions): Promise<SigningPackage> {
  if (options.as === "manager") {
    requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
    return getSigningOrThrow(db, { principal: options.principal, packageId: options.packageId, capability: "signings:read" });
  }
  if (options.as === "any" && hasCapability(options.principal, "signings:read")) {
    try {
      return await getSigningOrThrow(db, { principal: options.principal, packageId: options.packageId, capability: "signings:read" });
    } catch (error) {
      if (!(error instanceof AppError) || (error.code !== "not_found" && error.code !== "forbidden")) throw error;
    }
  }
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  return (await getSignerAssignmentOrThrow(db, { principal: options.principal, packageId: options.packageId })).signing;
}

/**
 * A ZIP of the entries, built while it is sent: each file is streamed from storage only when the
 * reader wants more, a slice at a time, so the archive of a large package never holds a document
 * whole. PDFs barely compress; they are stored, which keeps the archive fast to build.
 */
function zipStream(entries: { name: string; open: () => Promise<OpenedObject> }[], mtime: Date): ReadableStream<Uint8Array> {
  let zip: Zip;
  let next = 0;
  let emitted = 0;
  let finished = false;
  let current: { file: ZipPassThrough; reader: ReadableStreamDefaultReader<Uint8Array> } | undefined;
  /** One step: the next slice of the current file, or the next file's header. */
  async function step() {
    if (current) {
      const { done, value } = await current.reader.read();
      if (!done) return current.file.push(value);
      current.file.push(new Uint8Array(0), true);
      current = undefined;
      if (next === entries.length) zip.end();
      return;
    }
    if (next >= entries.length) return;
    const entry = entries[next++]!;
    const file = new ZipPassThrough(entry.name);
    file.mtime = mtime;
    zip.add(file);
    current = { file, reader: (await entry.open()).stream.getReader() };
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      zip = new Zip((error, chunk, final) => {
        if (error) return controller.error(error);
        emitted++;
        controller.enqueue(chunk);
        if (final) {
          finished = true;
          controller.close();
        }
      });
      if (entries.length === 0) zip.end();
    },
    // A pull must enqueue something (the stream does not ask again otherwise): steps until it has.
    async pull() {
      const before = emitted;
      while (emitted === before && !finished) await step();
    },
    async cancel() {
      await current?.reader.cancel();
    },
  });
}

/** A name safe inside a ZIP and a Content-Disposition: no path separators or control characters. */
function safeBaseName(name: string): string {
  return name
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 120);
}

function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const n = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), n);
    return n === 1 ? name : name.replace(/(\.[a-z]+)$/i, ` (${n})$1`);
  });
}
