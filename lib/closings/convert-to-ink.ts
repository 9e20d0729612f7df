import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, signatureRequests, type PackageDocument, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";

type Actor = { actorUserId: string | null; ipAddress?: string | null };

/**
 * Turns every `esign` document that is not e-signed yet into `wet_sign` (its state stays `pending`,
 * now meaning "at the table"), and drops its unsigned signature requests from the completion rule.
 * The table packet is built on demand, so the next download already holds these documents.
 * One `document.converted_to_ink` audit entry per document, with why.
 */
export async function convertRemainingToInk(
  tx: Db,
  signing: SigningPackage,
  actor: Actor & { reason: "manager" },
): Promise<PackageDocument[]> {
  if (!isOpenSigningStatus(signing.status) && signing.status !== "draft") {
    throw Conflict(`This signing package is ${signingStatusLabel(signing.status)}; its documents can no longer change.`);
  }
  const converted = await tx
    .update(packageDocuments)
    .set({ executionMode: "wet_sign" })
    .where(and(eq(packageDocuments.packageId, signing.id), eq(packageDocuments.executionMode, "esign"), eq(packageDocuments.executionStatus, "pending")))
    .returning();
  if (converted.length === 0) return [];
  const ids = converted.map((d) => d.id);
  await tx
    .update(signatureRequests)
    .set({ required: false })
    .where(and(inArray(signatureRequests.documentId, ids), eq(signatureRequests.status, "pending")));
  for (const document of converted) {
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: actor.actorUserId,
      action: "document.converted_to_ink",
      entityType: "package_document",
      entityId: document.id,
      ipAddress: actor.ipAddress,
      before: { executionMode: "esign" },
      after: { executionMode: "wet_sign", reason: actor.reason },
    });
  }
  return converted;
}

/** The manager's "Convert to ink". */
export async function convertPackageToInk(
  db: Db,
  options: { principal: Principal; packageId: string; ipAddress?: string | null },
): Promise<PackageDocument[]> {
  requireCapability(options.principal, "signings:write", "You do not have permission to change signing packages.");
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    return convertRemainingToInk(tx, signing, { actorUserId: options.principal.user.id, ipAddress: options.ipAddress, reason: "manager" });
  });
}
