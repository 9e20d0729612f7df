import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { attachmentRequests, packageSigners, signerAttachments, users, type AttachmentRequest, type SignerAttachment } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { objectDownload, type StoredDownload } from "@/lib/storage/objects";

export type AttachmentFileView = {
  id: string;
  fileName: string;
  sourceType: string;
  sizeBytes: number;
  sha256: string;
  pageCount: number;
  status: SignerAttachment["status"];
  rejectReason: string | null;
  reviewedAt: string | null;
  reviewedBy: string | null;
  createdAt: string;
};

export type AttachmentRequestView = {
  id: string;
  signerId: string;
  signerName: string;
  name: string;
  description: string | null;
  required: boolean;
  /** `missing` (nothing sent, or only rejected files), `pending_review`, or `accepted`. */
  status: "missing" | "pending_review" | "accepted";
  files: AttachmentFileView[];
};

/** A request's state, from its files: any accepted file settles it; else a pending one waits for review. */
export function requestStatusOf(files: { status: SignerAttachment["status"] }[]): AttachmentRequestView["status"] {
  if (files.some((f) => f.status === "accepted")) return "accepted";
  if (files.some((f) => f.status === "pending")) return "pending_review";
  return "missing";
}

async function loadViews(db: Db, packageId: string, signerId?: string): Promise<AttachmentRequestView[]> {
  const requests = await db
    .select({ request: attachmentRequests, signerName: packageSigners.name })
    .from(attachmentRequests)
    .innerJoin(packageSigners, eq(packageSigners.id, attachmentRequests.signerId))
    .where(and(eq(attachmentRequests.packageId, packageId), signerId ? eq(attachmentRequests.signerId, signerId) : undefined))
    .orderBy(asc(packageSigners.routingOrder), asc(packageSigners.createdAt), asc(attachmentRequests.position), asc(attachmentRequests.createdAt));
  if (requests.length === 0) return [];
  const files = await db
    .select({ file: signerAttachments, reviewer: users.name })
    .from(signerAttachments)
    .leftJoin(users, eq(users.id, signerAttachments.reviewedByUserId))
    .where(inArray(signerAttachments.requestId, requests.map((r) => r.request.id)))
    .orderBy(asc(signerAttachments.createdAt), asc(signerAttachments.id));
  return requests.map(({ request, signerName }) => {
    const own = files.filter((f) => f.file.requestId === request.id);
    return {
      ...requestFields(request),
      signerName,
      status: requestStatusOf(own.map((f) => f.file)),
      files: own.map((f) => serializeAttachmentFile(f.file, f.reviewer)),
    };
  });
}

function requestFields(r: AttachmentRequest) {
  return { id: r.id, signerId: r.signerId, name: r.name, description: r.description, required: r.required };
}

export function serializeAttachmentFile(a: SignerAttachment, reviewer: string | null = null): AttachmentFileView {
  return {
    id: a.id,
    fileName: a.fileName,
    sourceType: a.sourceType,
    sizeBytes: a.sizeBytes,
    sha256: a.sha256,
    pageCount: a.pageCount,
    status: a.status,
    rejectReason: a.rejectReason,
    reviewedAt: a.reviewedAt?.toISOString() ?? null,
    reviewedBy: reviewer,
    createdAt: a.createdAt.toISOString(),
  };
}

/** Every request of a package and the files sent for it, as its manager sees them. */
export async function listPackageAttachments(db: Db, options: { principal: Principal; packageId: string }): Promise<AttachmentRequestView[]> {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { principal: options.principal, packageId: options.packageId, capability: "signings:read" });
  return loadViews(db, signing.id);
}

/** The caller's own requests on a package they sign, and the files they sent (never another signer's). */
export async function listMyAttachments(db: Db, options: { principal: Principal; packageId: string }): Promise<AttachmentRequestView[]> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read this package.");
  const { signing, signer } = await getSignerAssignmentOrThrow(db, { principal: options.principal, packageId: options.packageId });
  return loadViews(db, signing.id, signer.id);
}

/** One attachment's kept PDF, for the package's manager or for the signer who sent it; 404 otherwise. */
export async function getAttachmentFile(
  db: Db,
  options: { principal: Principal; packageId: string; attachmentId: string; as: "manager" | "signer" },
): Promise<StoredDownload> {
  let packageId: string;
  let signerId: string | undefined;
  if (options.as === "manager") {
    requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
    packageId = (await getSigningOrThrow(db, { principal: options.principal, packageId: options.packageId, capability: "signings:read" })).id;
  } else {
    requireCapability(options.principal, "signer:signings:read", "You do not have permission to read this package.");
    const { signing, signer } = await getSignerAssignmentOrThrow(db, { principal: options.principal, packageId: options.packageId });
    packageId = signing.id;
    signerId = signer.id;
  }
  const [file] = isUuid(options.attachmentId)
    ? await db
        .select()
        .from(signerAttachments)
        .where(and(eq(signerAttachments.id, options.attachmentId), eq(signerAttachments.packageId, packageId), signerId ? eq(signerAttachments.signerId, signerId) : undefined))
    : [];
  if (!file) throw NotFound("That attachment is not on this package.");
  return objectDownload(db, { fileName: file.fileName, contentType: "application/pdf", sha256: file.sha256, storageKey: file.storageKey });
}
