import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { documentScans, type PackageDocument, type SigningPackage } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { BadRequest, Conflict } from "@/lib/errors";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";
import { completePackageIfDone } from "@/lib/package-lifecycle/complete-package-if-done";
import { getPackageDocumentOrThrow } from "./get-package-document-or-throw";
import { transitionDocument } from "@/lib/package-lifecycle/transition-document";

/** The body of an accept or reject decision, shared by `/v1` and the console's server action. */
export const scanReviewSchema = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("accept"), reason: z.string().trim().max(1000).optional() }),
  z.object({ decision: z.literal("reject"), reason: z.string().trim().min(1, "a reason is required to reject a scan").max(1000) }),
]);
export type ScanReview = z.infer<typeof scanReviewSchema>;

export type ReviewDocumentScanOptions = {
  principal: Principal;
  packageId: string;
  documentId: string;
  review: ScanReview;
  ipAddress?: string | null;
};

/**
 * A manager accepts or rejects the uploaded scan of an ink document: `scan_uploaded → accepted`
 * (the package completes if that was the last open document) or `→ rejected` with a reason (the
 * settlement agent uploads a new scan). The reviewer, the time, the reason and the scan's SHA-256
 * go into the audit trail and onto the scan row, which the certificate prints.
 */
export async function reviewDocumentScan(
  db: Db,
  options: ReviewDocumentScanOptions,
): Promise<{ document: PackageDocument; signing: SigningPackage }> {
  requireCapability(options.principal, "signings:write", "You do not have permission to review scans.");
  const review = scanReviewSchema.safeParse(options.review);
  if (!review.success) throw BadRequest(review.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; "));
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    if (!isOpenSigningStatus(signing.status)) {
      throw Conflict(`This signing package is ${signingStatusLabel(signing.status)}; its scans can no longer be reviewed.`);
    }
    const document = await getPackageDocumentOrThrow(tx, signing.id, options.documentId);
    if (document.executionStatus !== "scan_uploaded") throw Conflict("This document has no scan waiting for review.");
    const [scan] = await tx.select({ id: documentScans.id, sha256: documentScans.sha256 }).from(documentScans).where(eq(documentScans.documentId, document.id));
    if (!scan) throw Conflict("This document has no scan waiting for review.");
    const now = new Date();
    const userId = options.principal.user.id;
    const reason = review.data.reason || null;
    await tx.update(documentScans).set({ reviewedByUserId: userId, reviewedAt: now, rejectReason: review.data.decision === "reject" ? reason : null }).where(eq(documentScans.id, scan.id));
    const actor = { actorUserId: userId, ipAddress: options.ipAddress };
    const after = await transitionDocument(tx, document, review.data.decision === "accept" ? "accepted" : "rejected", {
      organizationId: signing.organizationId,
      ...actor,
      details: { scanSha256: scan.sha256, ...(reason ? { reason } : {}) },
    });
    if (review.data.decision === "reject") return { document: after, signing };
    const result = await completePackageIfDone(tx, signing, { ...actor, at: now });
    return { document: after, signing: result.signing };
  });
}
