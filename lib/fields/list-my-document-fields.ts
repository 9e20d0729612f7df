import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentFields } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { FIELD_ORDER } from "./field-order";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";

/**
 * The caller's own fields in a package assigned to them, in reading order: on one document
 * (`documentId`, 404 when it is not in the package) or on all of them. Other signers' fields are
 * not shown. Returns rows; callers serialize with `serializeField.package`.
 */
export async function listMyDocumentFields(db: Db, options: { principal: Principal; packageId: string; documentId?: string }) {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  const { signing, signer } = await getSignerAssignmentOrThrow(db, options);
  let documentId: string | undefined;
  if (options.documentId !== undefined) {
    const document = await getDocumentOrThrow(db, { packageId: signing.id, documentId: options.documentId }, (t) => ({ id: t.id }));
    documentId = document.id;
  }
  const rows = await db
    .select()
    .from(documentFields)
    .where(and(eq(documentFields.packageId, signing.id), eq(documentFields.signerId, signer.id), documentId ? eq(documentFields.documentId, documentId) : undefined))
    .orderBy(...FIELD_ORDER);
  return rows;
}
