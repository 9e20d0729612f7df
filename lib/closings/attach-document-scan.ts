import { putObject } from "@/lib/storage/objects";
import { PDFDocument } from "pdf-lib";
import type { Db } from "@/db/client";
import { documentScans, type PackageDocument } from "@/db/schema";
import { Conflict } from "@/lib/errors";
import { isInkMode } from "@/lib/packages/document-state-machine";
import { transitionDocument } from "@/lib/package-lifecycle/transition-document";

export type ScanPageImage = { bytes: Uint8Array; contentType: "image/png" | "image/jpeg" };

/** A PDF with one US-letter-proportioned page per image, in the order given (page 1 first). */
export async function buildScanPdf(pages: readonly ScanPageImage[]): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  for (const page of pages) {
    const image = page.contentType === "image/png" ? await pdf.embedPng(page.bytes) : await pdf.embedJpg(page.bytes);
    // 612 pt wide, height from the image's aspect ratio.
    const width = 612;
    const height = (image.height / image.width) * width;
    pdf.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  }
  pdf.setProducer("Closing & Signing (pdf-lib)");
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));
  return pdf.save();
}

/**
 * Stores the scan of an ink document (replacing a rejected one) and moves it to `scan_uploaded`
 * (`pending|rejected → scan_uploaded`), with the scan's SHA-256 in the audit entry. Run it in the
 * caller's transaction with the package row locked.
 */
export async function attachDocumentScan(
  tx: Db,
  document: PackageDocument,
  options: { organizationId: number; pages: readonly ScanPageImage[]; actorUserId: string | null; ipAddress?: string | null },
): Promise<PackageDocument> {
  if (!isInkMode(document.executionMode)) throw Conflict(`Document "${document.name}" is not signed in ink; it takes no scan.`);
  if (options.pages.length !== document.pageCount) {
    throw Conflict(`Document "${document.name}" has ${document.pageCount} pages; the scan has ${options.pages.length}.`);
  }
  const content = await buildScanPdf(options.pages);
  const { storageKey, sha256 } = await putObject(tx, { bytes: content, contentType: "application/pdf" });
  const values = {
    packageId: document.packageId,
    documentId: document.id,
    storageKey,
    sizeBytes: content.length,
    sha256,
    pageCount: options.pages.length,
    uploadedByUserId: options.actorUserId,
    reviewedByUserId: null,
    reviewedAt: null,
    rejectReason: null,
  };
  const after = await transitionDocument(tx, document, "scan_uploaded", {
    organizationId: options.organizationId,
    actorUserId: options.actorUserId,
    ipAddress: options.ipAddress,
    details: { scanSha256: sha256, scanPages: options.pages.length },
  });
  await tx.insert(documentScans).values(values).onConflictDoUpdate({ target: documentScans.documentId, set: { ...values, createdAt: new Date(), updatedAt: new Date() } });
  return after;
}
