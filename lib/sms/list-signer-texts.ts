import { and, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { smsMessages, smsOptOuts, type PackageSigner, type SmsMessage } from "@/db/schema";
import { iso } from "@/lib/iso";

export type SignerTexts = {
  /** When the manager attested the signer's consent to texts; null: the signer is not texted. */
  consentAt: string | null;
  /** When the number replied STOP to this organization's texts (null: not stopped). */
  stoppedAt: string | null;
  /** The newest text to the signer and where it stands. */
  last: { kind: SmsMessage["kind"]; status: SmsMessage["status"]; skipReason: SmsMessage["skipReason"]; errorCode: string | null; at: string } | null;
};

/**
 * What the manager's package page shows of each signer's texts: the consent, a STOP from the number
 * (for the package's organization) and the newest text's status. Signers without a number are left out.
 */
export async function listSignerTexts(
  db: Db,
  options: { organizationId: number; signers: (Pick<PackageSigner, "id" | "phone"> & { smsConsentAt: Date | string | null })[] },
): Promise<Record<string, SignerTexts>> {
  const withPhone = options.signers.filter((s) => s.phone);
  if (withPhone.length === 0) return {};
  const [stops, messages] = await Promise.all([
    db
      .select({ phone: smsOptOuts.phone, stoppedAt: smsOptOuts.stoppedAt })
      .from(smsOptOuts)
      .where(and(eq(smsOptOuts.organizationId, options.organizationId), inArray(smsOptOuts.phone, withPhone.map((s) => s.phone!)))),
    db
      .select()
      .from(smsMessages)
      .where(inArray(smsMessages.signerId, withPhone.map((s) => s.id)))
      .orderBy(desc(smsMessages.createdAt), desc(smsMessages.id)),
  ]);
  const result: Record<string, SignerTexts> = {};
  for (const signer of withPhone) {
    const last = messages.find((m) => m.signerId === signer.id);
    const stop = stops.find((s) => s.phone === signer.phone);
    result[signer.id] = {
      consentAt: signer.smsConsentAt === null ? null : new Date(signer.smsConsentAt).toISOString(),
      stoppedAt: stop ? iso(stop.stoppedAt) : null,
      last: last ? { kind: last.kind, status: last.status, skipReason: last.skipReason, errorCode: last.errorCode, at: iso(last.updatedAt) } : null,
    };
  }
  return result;
}
