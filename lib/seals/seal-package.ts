import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import type { Db } from "@/db/client";
import { packageSeals, sealedDocuments } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { getEnv } from "@/lib/env";
import { putObject, putObjectParts, readObject } from "@/lib/storage/objects";
import { establishTransferableRecords } from "@/lib/transferable-records/establish-transferable-records";
import { appendDss, revisionValidationData } from "./add-validation-data";
import { drawCertificate } from "./draw-certificate";
import { incrementalPdfFromNew, openIncrementalPdf } from "./incremental-pdf";
import { loadSealEvidence, type SealEvidence } from "./load-seal-evidence";
import { loadSealingIdentity } from "./load-sealing-identity";
import { isTimestampingConfigured, requestTimestamp } from "./request-timestamp";
import type { RevocationCache } from "./revocation-data";
import { signSealedPdf, type SealedPdf } from "./sign-sealed-pdf";
import { stampDocument } from "./stamp-document";

export const SIGNING_SEALED = "signing.sealed";

export type SealPackageResult = { outcome: "sealed" | "already_sealed" | "not_completed"; documents: number };

/** Test hook: runs between rendering and storing, where a crash must leave nothing behind. */
export type SealPackageOptions = { packageId: string; beforeStore?: () => Promise<void> | void };

/**
 * Seals a completed package: for every document, its fields (or a signature page) drawn in, the
 * certificate of completion appended, and a PAdES signature over the result; plus the certificate
 * on its own, signed the same way. The files, the `sealed` status and the `signing.sealed` audit entry
 * (which records every sealed file's SHA-256 and the audit head the certificates carry) are written
 * in one transaction, under a lock on the package's seal row: a crash before the commit leaves
 * nothing, a retry or a concurrent run finds `sealed` and stops, and the unique index on
 * `sealed_documents.document_id` (upsert) keeps exactly one sealed file per document.
 *
 * The audit head printed is the one recorded at completion (`package_seals.audit_head_hash`), so
 * every retry renders the same evidence.
 *
 * With `TSA_URL` set every signature is time-stamped by that authority (PAdES-B-T) and the authority's
 * time of each file goes into the `signing.sealed` entry; an authority that fails throws
 * `TimestampUnavailableError` before anything is stored, so the job retries and nothing is sealed
 * without its timestamp.
 *
 * When a certificate of the seal (ours, its chain, the authority's) names a revocation service, each
 * signed file gets the chain and the revocation answers in a DSS dictionary (PAdES-B-LT), appended as
 * an incremental update; a service that fails throws `RevocationUnavailableError` before anything is
 * stored, which delays the seal the same way (`SEAL_LTV=off` turns this off).
 */
export async function sealPackage(db: Db, options: SealPackageOptions): Promise<SealPackageResult> {
  const { packageId } = options;
  const [existing] = await db.select().from(packageSeals).where(eq(packageSeals.packageId, packageId)).limit(1);
  if (existing?.status === "sealed") return { outcome: "already_sealed", documents: 0 };
  const evidence = await loadSealEvidence(db, { packageId });
  if (evidence.signing.status !== "completed") return { outcome: "not_completed", documents: 0 };
  if (existing?.auditHeadHash) evidence.auditHeadHash = existing.auditHeadHash;

  const identity = loadSealingIdentity();
  const sealedAt = new Date();
  const verifyUrl = new URL("/verify", getEnv().APP_URL).toString();
  // The authority's time of the last signature stamped (each file is signed, then stamped, in turn).
  let trustedTime: Date | null = null;
  const signOptions = {
    identity,
    reason: `Sealed on completion of signing package ${evidence.signing.id}`,
    location: evidence.organizationName,
    contactInfo: verifyUrl,
    signingTime: sealedAt,
    timestamp: isTimestampingConfigured()
      ? async (signatureValue: Buffer) => {
          const stamp = await requestTimestamp(signatureValue);
          trustedTime = stamp.genTime;
          return stamp.token;
        }
      : undefined,
  };
  // PAdES-B-LT: the chain and revocation data, appended after each signature (add-validation-data.ts).
  // Only the signature's revision is read to find its certificates; the whole file is joined once, to
  // append the DSS revision, only when there is revocation data to embed.
  const revocationCache: RevocationCache = new Map();
  const storeSealed = async (sealed: SealedPdf) => {
    const data = getEnv().SEAL_LTV === "off" ? null : await revisionValidationData(sealed, revocationCache);
    if (!data) return putObjectParts(db, { parts: [sealed.base, sealed.update], sha256: sealed.sha256, contentType: "application/pdf" });
    return putObject(db, { bytes: await appendDss(Buffer.concat([sealed.base, sealed.update]), data), contentType: "application/pdf" });
  };
  const takeTrustedTime = () => {
    const time: Date | null = trustedTime;
    trustedTime = null;
    return time?.toISOString() ?? null;
  };

  // Each sealed PDF goes to file storage as soon as it is signed, so only one is held in memory at a
  // time. It is sealed by incremental update: the original's bytes (read once) are followed by a new
  // revision with the stamped fields, the certificate pages and the signature, and stored as those two
  // parts, never re-saved or joined.
  const files: { documentId: string; storageKey: string; sizeBytes: number; sha256: string; originalSha256: string; timestampedAt: string | null }[] = [];
  for (const document of evidence.documents) {
    // An ink document is sealed as its accepted scan: the pages signed at the table.
    const scan = evidence.scans.find((s) => s.documentId === document.id);
    const pdf = await openIncrementalPdf(await readObject(db, scan ? scan.storageKey : document.storageKey));
    if (!scan) await stampDocument(evidence, document, pdf.pdfDoc);
    await drawCertificate(pdf.pdfDoc, { evidence, documentId: document.id, sealedAt, verifyUrl });
    setMetadata(pdf.pdfDoc, evidence, document.name);
    const stored = await storeSealed(await signSealedPdf(pdf, signOptions));
    files.push({
      documentId: document.id,
      storageKey: stored.storageKey,
      sizeBytes: stored.sizeBytes,
      sha256: stored.sha256,
      originalSha256: document.sha256,
      timestampedAt: takeTrustedTime(),
    });
  }
  const certificateDoc = await PDFDocument.create();
  const authoritativeCopies = Object.fromEntries(
    files.filter((f) => evidence.documents.find((d) => d.id === f.documentId)?.transferable).map((f) => [f.documentId, f.sha256]),
  );
  await drawCertificate(certificateDoc, { evidence, sealedAt, verifyUrl, authoritativeCopies });
  // The signers' accepted attachments belong to the package, not to one document: they follow the
  // certificate in its standalone file, which the PAdES signature then covers like everything else.
  for (const attachment of evidence.attachments) {
    const source = await PDFDocument.load(await readObject(db, attachment.storageKey));
    const pages = await certificateDoc.copyPages(source, source.getPageIndices());
    for (const page of pages) certificateDoc.addPage(page);
  }
  setMetadata(certificateDoc, evidence, "Certificate of completion");
  const storedCertificate = await storeSealed(await signSealedPdf(await incrementalPdfFromNew(certificateDoc), signOptions));
  const certificateSha256 = storedCertificate.sha256;
  const certificateTimestampedAt = takeTrustedTime();

  await options.beforeStore?.();

  return db.transaction(async (tx) => {
    await tx
      .insert(packageSeals)
      .values({ packageId, auditHeadHash: evidence.auditHeadHash })
      .onConflictDoNothing({ target: packageSeals.packageId });
    const [seal] = await tx.select().from(packageSeals).where(eq(packageSeals.packageId, packageId)).for("update");
    if (seal?.status === "sealed") return { outcome: "already_sealed" as const, documents: 0 };
    for (const file of files) {
      const values = { packageId, documentId: file.documentId, storageKey: file.storageKey, sizeBytes: file.sizeBytes, sha256: file.sha256 };
      await tx
        .insert(sealedDocuments)
        .values(values)
        .onConflictDoUpdate({ target: sealedDocuments.documentId, set: { storageKey: values.storageKey, sizeBytes: values.sizeBytes, sha256: values.sha256, createdAt: sql`now()` } });
    }
    await tx
      .update(packageSeals)
      .set({
        status: "sealed",
        auditHeadHash: evidence.auditHeadHash,
        certificateStorageKey: storedCertificate.storageKey,
        certificateSha256,
        sealedAt,
        lastError: null,
        updatedAt: sealedAt,
      })
      .where(eq(packageSeals.packageId, packageId));
    await recordAuditEntry(tx, {
      organizationId: evidence.signing.organizationId,
      packageId,
      actorUserId: null,
      action: SIGNING_SEALED,
      entityType: "signing_package",
      entityId: packageId,
      after: {
        anchoredAuditHead: evidence.auditHeadHash,
        sealedAt: sealedAt.toISOString(),
        certificateSha256,
        signingCertificateSha256: sha256(identity.certificateDer),
        ...(evidence.attachments.length > 0
          ? { attachments: evidence.attachments.map((a) => ({ attachmentId: a.id, signerId: a.signerId, name: a.requestName, fileName: a.fileName, sha256: a.sha256 })) }
          : {}),
        ...(signOptions.timestamp ? { timestampAuthority: new URL(getEnv().TSA_URL!).host, certificateTimestampedAt } : {}),
        documents: files.map((f) => ({
          documentId: f.documentId,
          sha256Before: f.originalSha256,
          sealedSha256: f.sha256,
          ...(f.timestampedAt ? { timestampedAt: f.timestampedAt } : {}),
        })),
      },
    });
    await establishTransferableRecords(tx, {
      packageId,
      organizationId: evidence.signing.organizationId,
      anchor: evidence.auditHeadHash,
      establishedAt: sealedAt,
      copies: files.filter((f) => f.documentId in authoritativeCopies),
    });
    return { outcome: "sealed" as const, documents: files.length };
  });
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function setMetadata(pdfDoc: PDFDocument, evidence: SealEvidence, title: string) {
  pdfDoc.setTitle(`${title} — ${evidence.signing.title}`.slice(0, 500));
  pdfDoc.setProducer("Closing & Signing (pdf-lib)");
  pdfDoc.setCreator("Closing & Signing");
  pdfDoc.setSubject(`Sealed signing package ${evidence.signing.id}`);
}
