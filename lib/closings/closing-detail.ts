import { objectDownload, type StoredDownload } from "@/lib/storage/objects";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentScans, packageDocuments, signingPackages, users, type ExecutionMode, type PackageDocument, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { BadRequest, Conflict, NotFound } from "@/lib/errors";
import { assertDraft } from "@/lib/packages/assert-draft";
import { executionModeSchema } from "@/lib/packages/execution-mode-schema";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { setDocumentFlag } from "@/lib/packages/set-document-flag";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";
import { appointmentColumns, closingAppointmentSchema, serializeAppointment, type ClosingAppointmentInput } from "./closing-appointment";
import { getPackageDocumentOrThrow } from "./get-package-document-or-throw";

type DocumentState = Pick<PackageDocument, "executionMode" | "executionStatus">;

export type ClosingSummary = { esigned: number; toESign: number; atTable: number; scanToReview: number; accepted: number; rejected: number; toRead: number; acknowledged: number };

/** Counts of a package's documents by where they stand, for "2 e-signed · 1 at the table · 1 scan to review". */
export function summarizeClosing(documents: readonly DocumentState[]): ClosingSummary {
  const s: ClosingSummary = { esigned: 0, toESign: 0, atTable: 0, scanToReview: 0, accepted: 0, rejected: 0, toRead: 0, acknowledged: 0 };
  for (const d of documents) {
    if (d.executionMode === "esign") s[d.executionStatus === "esigned" ? "esigned" : "toESign"] += 1;
    else if (d.executionMode === "review_only") s[d.executionStatus === "acknowledged" ? "acknowledged" : "toRead"] += 1;
    else if (d.executionStatus === "scan_uploaded") s.scanToReview += 1;
    else if (d.executionStatus === "accepted") s.accepted += 1;
    else if (d.executionStatus === "rejected") s.rejected += 1;
    else s.atTable += 1;
  }
  return s;
}

/** The summary as one line; parts with zero documents are left out. */
export function closingSummaryText(s: ClosingSummary): string {
  const parts: [number, string][] = [
    [s.esigned, "e-signed"],
    [s.toESign, "to e-sign"],
    [s.atTable, "at the table"],
    [s.scanToReview, s.scanToReview === 1 ? "scan to review" : "scans to review"],
    [s.rejected, s.rejected === 1 ? "scan rejected" : "scans rejected"],
    [s.accepted, s.accepted === 1 ? "scan accepted" : "scans accepted"],
    [s.toRead, "to read"],
    [s.acknowledged, "acknowledged"],
  ];
  return parts
    .filter(([n]) => n > 0)
    .map(([n, label]) => `${n} ${label}`)
    .join(" · ");
}

export type ClosingDocument = PackageDocument & {
  scan: { sha256: string; pageCount: number; uploadedAt: Date; reviewedAt: Date | null; reviewedByName: string | null; rejectReason: string | null } | null;
};

export type ClosingDetail = { signing: SigningPackage; documents: ClosingDocument[]; summary: ClosingSummary };

/** A package's hybrid-closing view for its managers: the appointment, every document's mode and state with its scan, and the summary. */
export async function getClosingDetail(db: Db, options: { principal: Principal; packageId: string }): Promise<ClosingDetail> {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const [documents, scans] = await Promise.all([
    db.select().from(packageDocuments).where(eq(packageDocuments.packageId, signing.id)).orderBy(asc(packageDocuments.position), asc(packageDocuments.createdAt), asc(packageDocuments.id)),
    db
      .select({
        documentId: documentScans.documentId,
        sha256: documentScans.sha256,
        pageCount: documentScans.pageCount,
        uploadedAt: documentScans.updatedAt,
        reviewedAt: documentScans.reviewedAt,
        reviewedByName: users.name,
        rejectReason: documentScans.rejectReason,
      })
      .from(documentScans)
      .leftJoin(users, eq(users.id, documentScans.reviewedByUserId))
      .where(eq(documentScans.packageId, signing.id)),
  ]);
  return {
    signing,
    documents: documents.map((d) => {
      const scan = scans.find((s) => s.documentId === d.id);
      return { ...d, scan: scan ? { sha256: scan.sha256, pageCount: scan.pageCount, uploadedAt: scan.uploadedAt, reviewedAt: scan.reviewedAt, reviewedByName: scan.reviewedByName, rejectReason: scan.rejectReason } : null };
    }),
    summary: summarizeClosing(documents),
  };
}

export function serializeClosing(detail: ClosingDetail) {
  return {
    packageId: detail.signing.id,
    ...serializeAppointment(detail.signing),
    summary: { ...detail.summary, text: closingSummaryText(detail.summary) },
    documents: detail.documents.map((d) => ({
      id: d.id,
      name: d.name,
      pageCount: d.pageCount,
      executionMode: d.executionMode,
      executionStatus: d.executionStatus,
      scan: d.scan
        ? {
            sha256: d.scan.sha256,
            pageCount: d.scan.pageCount,
            uploadedAt: d.scan.uploadedAt.toISOString(),
            reviewedAt: d.scan.reviewedAt?.toISOString() ?? null,
            reviewedBy: d.scan.reviewedByName,
            rejectReason: d.scan.rejectReason,
          }
        : null,
    })),
  };
}

/**
 * Sets or clears the closing appointment and the moment e-signing opens, on a draft or an open
 * package (closings get rescheduled after the invitations went out). A key left out is unchanged.
 */
export async function updateClosingAppointment(
  db: Db,
  options: { principal: Principal; packageId: string; appointment: ClosingAppointmentInput; ipAddress?: string | null },
): Promise<SigningPackage> {
  requireCapability(options.principal, "signings:write", "You do not have permission to edit signing packages.");
  const parsed = closingAppointmentSchema.safeParse(options.appointment);
  if (!parsed.success) throw BadRequest(parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  return db.transaction(async (tx) => {
    const before = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    if (before.status !== "draft" && !isOpenSigningStatus(before.status)) {
      throw Conflict(`This signing package is ${signingStatusLabel(before.status)}; its closing can no longer change.`, "package_closed");
    }
    const [after] = await tx
      .update(signingPackages)
      .set({ ...appointmentColumns(parsed.data), updatedAt: new Date() })
      .where(eq(signingPackages.id, before.id))
      .returning();
    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      packageId: before.id,
      actorUserId: options.principal.user.id,
      action: "signing.appointment_updated",
      entityType: "signing_package",
      entityId: before.id,
      ipAddress: options.ipAddress,
      before: serializeAppointment(before),
      after: serializeAppointment(after!),
    });
    return after!;
  });
}

/** Changes how one document of a draft is executed (409 once sent: then only "Convert to ink" changes modes). */
export async function setDocumentExecutionMode(
  db: Db,
  options: { principal: Principal; packageId: string; documentId: string; executionMode: ExecutionMode; ipAddress?: string | null },
): Promise<PackageDocument> {
  requireCapability(options.principal, "signings:write", "You do not have permission to edit signing packages.");
  const mode = executionModeSchema.safeParse(options.executionMode);
  if (!mode.success) throw BadRequest(mode.error.issues[0]!.message);
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    assertDraft(signing, "change how its documents are signed");
    const document = await getPackageDocumentOrThrow(tx, signing.id, options.documentId);
    const after = await setDocumentFlag(tx, { signing, document, flag: "executionMode", value: mode.data, actorUserId: options.principal.user.id, ipAddress: options.ipAddress });
    return after ?? document;
  });
}

/** The stored scan PDF of an ink document, for the manager reviewing it (404 when there is none). */
export async function getDocumentScanFile(
  db: Db,
  options: { principal: Principal; packageId: string; documentId: string },
): Promise<StoredDownload> {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const document = await getPackageDocumentOrThrow(db, signing.id, options.documentId);
  const [scan] = await db.select({ storageKey: documentScans.storageKey, sha256: documentScans.sha256 }).from(documentScans).where(eq(documentScans.documentId, document.id));
  if (!scan) throw NotFound(`Document ${document.name} has no scan.`);
  return objectDownload(db, { fileName: `${document.name.replace(/\.pdf$/i, "")} (scan).pdf`, contentType: "application/pdf", sha256: scan.sha256, storageKey: scan.storageKey });
}
