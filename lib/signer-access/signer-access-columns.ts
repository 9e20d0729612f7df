import type { SignerProofMethod } from "@/db/schema";
import { hashPassword } from "@/lib/auth/passwords";

/** A signer's proof-of-identity input, as /v1 and the manager's form take it, with the consent to texts. */
export type SignerAccessInput = { authMethod?: SignerProofMethod; accessCode?: string; phone?: string; smsConsent?: boolean };

/**
 * The signer row's columns for it: the access code only as its scrypt hash; the consent to texts
 * (given with a mobile number) as who attested it and when.
 */
export async function signerAccessColumns(input: SignerAccessInput, attestedBy?: { userId: string; at?: Date }) {
  const phone = input.phone?.trim() || null;
  const consent = Boolean(input.smsConsent && phone && attestedBy);
  return {
    authMethod: input.authMethod ?? null,
    accessCodeHash: input.accessCode ? await hashPassword(input.accessCode.trim()) : null,
    phone,
    smsConsentAt: consent ? (attestedBy!.at ?? new Date()) : null,
    smsConsentByUserId: consent ? attestedBy!.userId : null,
  };
}
