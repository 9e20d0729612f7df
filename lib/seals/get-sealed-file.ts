import { asc, eq } from "drizzle-orm";
import { Zip, ZipPassThrough } from "fflate";
import type { Db } from "@/db/client";
import { objectDownload, openObject, type OpenedObject, type StoredDownload } from "@/lib/storage/objects";
import { packageDocuments, packageSeals, sealedDocuments, type SigningPackage } from "@/db/schema";
import { hasCapability, requireCapability, type Principal } from "@/lib/auth/principal";
import { AppError, Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getSignerAssignmentOrThrow } from "@/lib/signings/get-signer-assignment-or-throw";
import { getSigningOrThrow } from "@/lib/signings/get-signing-or-throw";

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
    .select({ documentId: sealedDocuments.documentId, name: packageDocuments.name, storageKey: sealedDocuments.storageKey, sha256: sealedDocuments.sha256 })
    .from(sealedDocuments)
    .innerJoin(packageDocuments, eq(packageDocuments.id, sealedDocuments.documentId))
    .where(eq(sealedDocuments.packageId, signing.id))
    .orderBy(asc(packageDocuments.position), asc(packageDocuments.createdAt), asc(packageDocuments.id));
  const named = uniqueNames(rows.map((r) => `${safeBaseName(r.name.replace(/\.pdf$/i, "")) || "Document"} (sealed).pdf`));

  if (options.file === "all") {
    const certificateKey = seal.certificateStorageKey;
    const entries = [
      ...rows.map((row, i) => ({ name: named[i]!, key: row.storageKey })),
      { name: uniqueNames([...named, certificateName]).at(-1)!, key: certificateKey },
    ].map((entry) => ({ name: entry.name, open: () => openObject(db, entry.key) }));
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
  return objectDownload(db, { fileName: named[index]!, contentType: "application/pdf", sha256: row.sha256, storageKey: row.storageKey });
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
