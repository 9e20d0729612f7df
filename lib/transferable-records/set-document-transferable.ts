import type { Db } from "@/db/client";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { assertDraft } from "@/lib/packages/assert-draft";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { setDocumentFlag } from "@/lib/packages/set-document-flag";

/**
 * Marks a draft's document as a transferable record (or not): once the package completes and is
 * sealed, the sealed PDF becomes the single authoritative copy under the sending organization's
 * control. Only while the package is a draft (409 after); 404 for a document of another package.
 */
export async function setDocumentTransferable(
  db: Db,
  options: { principal: Principal; packageId: string; documentId: string; transferable: boolean; ipAddress?: string | null },
): Promise<{ documentId: string; transferable: boolean }> {
  requireCapability(options.principal, "signings:write", "You do not have permission to change documents.");
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { principal: options.principal, packageId: options.packageId, capability: "signings:write", lock: true });
    assertDraft(signing, "change its documents");
    const document = await getDocumentOrThrow(tx, { packageId: signing.id, documentId: options.documentId }, (t) => ({ id: t.id, transferable: t.transferable }));
    await setDocumentFlag(tx, { signing, document, flag: "transferable", value: options.transferable, actorUserId: options.principal.user.id, ipAddress: options.ipAddress });
    return { documentId: document.id, transferable: options.transferable };
  });
}
