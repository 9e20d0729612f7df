import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, type DocumentExecutionStatus, type PackageDocument } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { Conflict } from "@/lib/errors";
import { assertDocumentTransition, documentStatusLabel } from "@/lib/packages/document-state-machine";

export type DocumentTransitionAudit = {
  organizationId: number;
  /** Who moved it; `null` for the system. */
  actorUserId: string | null;
  ipAddress?: string | null;
  /** Extra facts for the entry's `after` (the scan's SHA-256, a reject reason, the signer who acknowledged). */
  details?: Record<string, unknown>;
};

/** What an audit entry keeps of a document: never its bytes. */
export function documentStateView(document: Pick<PackageDocument, "id" | "name" | "executionMode" | "executionStatus">) {
  return { id: document.id, name: document.name, executionMode: document.executionMode, executionStatus: document.executionStatus };
}

/**
 * The one way a package document changes execution state, built like `transitionSigning`: asserts
 * the move against the document state machine and the document's mode (409), updates the row only
 * if it is still in the state the caller read (a concurrent move that committed first makes this
 * one lose with 409), and appends the `document.<to>` audit entry with the state before and after.
 * Run it inside the caller's transaction, with the package row locked.
 */
export async function transitionDocument(
  tx: Db,
  document: PackageDocument,
  to: DocumentExecutionStatus,
  audit: DocumentTransitionAudit,
): Promise<PackageDocument> {
  assertDocumentTransition(document.executionMode, document.executionStatus, to);
  const [after] = await tx
    .update(packageDocuments)
    .set({ executionStatus: to })
    .where(and(eq(packageDocuments.id, document.id), eq(packageDocuments.executionStatus, document.executionStatus)))
    .returning();
  if (!after) {
    throw Conflict(`The document is no longer ${documentStatusLabel(document.executionStatus)}; it changed meanwhile. Reload it and try again.`);
  }
  await recordAuditEntry(tx, {
    organizationId: audit.organizationId,
    packageId: document.packageId,
    actorUserId: audit.actorUserId,
    action: `document.${to}`,
    entityType: "package_document",
    entityId: document.id,
    ipAddress: audit.ipAddress,
    before: documentStateView(document),
    after: { ...documentStateView(after), ...audit.details },
  });
  return after;
}
