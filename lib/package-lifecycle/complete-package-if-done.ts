import { and, eq, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, signatureRequests, type SigningPackage } from "@/db/schema";
import { attachmentsOutstanding } from "./attachments-outstanding";
import { isOpenSigningStatus } from "@/lib/packages/state-machine";
import { transitionSigning, type TransitionAudit } from "./transition-signing";
import { isDocumentDone } from "@/lib/packages/document-state-machine";
import { notifyCompletion } from "./notify-completion";

/**
 * The completion rule: a package is done when every `esign` document is e-signed (and no required
 * signature request is left unsigned), every `wet_sign`/`notarize` document's scan is accepted and
 * every `review_only` document is acknowledged; and the signers' attachments allow it: every required
 * one accepted, none waiting for review (`attachmentsOutstanding`).
 */
export async function isPackageDone(db: Db, packageId: string): Promise<boolean> {
  const documents = await db
    .select({ executionMode: packageDocuments.executionMode, executionStatus: packageDocuments.executionStatus })
    .from(packageDocuments)
    .where(eq(packageDocuments.packageId, packageId));
  if (documents.length === 0 || !documents.every(isDocumentDone)) return false;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(signatureRequests)
    .where(and(eq(signatureRequests.packageId, packageId), eq(signatureRequests.required, true), ne(signatureRequests.status, "signed")));
  if ((row?.n ?? 0) !== 0) return false;
  const attachments = await attachmentsOutstanding(db, packageId);
  return attachments.requiredMissing === 0 && attachments.pendingReview === 0;
}

/**
 * Completes an open package when the completion rule holds (`transitionSigning` then requests the
 * seal) and mails everyone; returns the package as it now is. Run it in the caller's transaction,
 * with the package row locked, after the move that may have finished the last document.
 */
export async function completePackageIfDone(
  tx: Db,
  signing: SigningPackage,
  audit: TransitionAudit & { at?: Date },
): Promise<{ signing: SigningPackage; completed: boolean }> {
  if (!isOpenSigningStatus(signing.status) || !(await isPackageDone(tx, signing.id))) return { signing, completed: false };
  const { at, ...transitionAudit } = audit;
  const completed = await transitionSigning(tx, signing, "completed", transitionAudit, { at });
  await notifyCompletion(tx, completed);
  return { signing: completed, completed: true };
}
