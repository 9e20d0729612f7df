import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type PackageSigner, type SignerProofMethod } from "@/db/schema";
import { hashPassword } from "@/lib/auth/passwords";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { pgErrorCode } from "@/lib/db/pg-error-code";
import { BadRequest, Conflict } from "@/lib/errors";
import { assertDraft } from "@/lib/packages/assert-draft";
import { findUserIdByEmail } from "./find-user-id-by-email";
import { getSignerOrThrow } from "@/lib/packages/get-signer-or-throw";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { serializeSigner } from "./serialize-signer";

export type UpdateSignerOptions = {
  principal: Principal;
  packageId: string;
  signerId: string;
  name?: string;
  email?: string;
  role?: "signer" | "co_signer";
  routingOrder?: number;
  /** The signer's own method of proof; null follows the package's. */
  authMethod?: SignerProofMethod | null;
  /** A new access code (write-only: stored hashed, replaces the old one). */
  accessCode?: string;
  /** E.164 mobile number; null removes it. */
  phone?: string | null;
  /** The manager attests the signer agreed to texts at the (new or current) number; false withdraws it. */
  smsConsent?: boolean;
  /** null: follow the organization's default language. */
  language?: "en" | "es" | null;
  ipAddress?: string | null;
};

/**
 * The mobile number and consent columns after an edit: a changed number drops the consent unless it
 * is attested again; a consent needs a number (400 otherwise).
 */
function textColumns(before: PackageSigner, options: UpdateSignerOptions) {
  const phoneGiven = options.phone !== undefined;
  const phone = phoneGiven ? options.phone?.trim() || null : before.phone;
  const phoneChanged = phone !== before.phone;
  if (options.smsConsent && !phone) throw BadRequest("A consent to text messages needs the signer's mobile number.");
  let consent: { smsConsentAt: Date | null; smsConsentByUserId: string | null } | undefined;
  if (options.smsConsent === true && (phoneChanged || !before.smsConsentAt)) consent = { smsConsentAt: new Date(), smsConsentByUserId: options.principal.user.id };
  else if (options.smsConsent === false || (phoneChanged && options.smsConsent === undefined)) consent = { smsConsentAt: null, smsConsentByUserId: null };
  return { ...(phoneChanged ? { phone } : {}), ...consent };
}

/**
 * Edits a signer of a draft; a new email re-links the signer to that email's user. A new access code
 * replaces the stored hash (the code is never stored or audited in clear); sending checks that each
 * signer's method has what it needs. See textColumns for the mobile number and the consent to texts.
 */
export async function updateSigner(db: Db, options: UpdateSignerOptions): Promise<PackageSigner> {
  requireCapability(options.principal, "signings:write", "You do not have permission to change signers.");
  try {
    return await db.transaction(async (tx) => {
      const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
      const before = await getSignerOrThrow(tx, options);
      assertDraft(signing, "change its signers");
      const [after] = await tx
        .update(packageSigners)
        .set({
          ...(options.name !== undefined ? { name: options.name } : {}),
          ...(options.email !== undefined ? { email: options.email, userId: await findUserIdByEmail(tx, options.email) } : {}),
          ...(options.role !== undefined ? { role: options.role } : {}),
          ...(options.routingOrder !== undefined ? { routingOrder: options.routingOrder } : {}),
          ...textColumns(before, options),
          ...(options.authMethod !== undefined ? { authMethod: options.authMethod } : {}),
          ...(options.accessCode ? { accessCodeHash: await hashPassword(options.accessCode.trim()) } : {}),
          ...(options.language !== undefined ? { language: options.language } : {}),
          updatedAt: new Date(),
        })
        .where(eq(packageSigners.id, before.id))
        .returning();
      await recordAuditEntry(tx, {
        organizationId: signing.organizationId,
        packageId: signing.id,
        actorUserId: options.principal.user.id,
        action: "signer.updated",
        entityType: "package_signer",
        entityId: before.id,
        ipAddress: options.ipAddress,
        before: serializeSigner(before),
        after: serializeSigner(after!),
      });
      return after!;
    });
  } catch (error) {
    if (pgErrorCode(error) === "23505") throw Conflict(`A signer with email ${options.email} is already on this signing package.`);
    throw error;
  }
}
