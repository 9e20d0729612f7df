import type { SignerAuthMethod } from "@/db/schema";
import { hashPassword } from "@/lib/auth/passwords";

/** A signer's proof-of-identity input, as /v1 and the manager's form take it. */
export type SignerAccessInput = { authMethod?: SignerAuthMethod; accessCode?: string; phone?: string };

/** The signer row's columns for it: the access code only as its scrypt hash. */
export async function signerAccessColumns(input: SignerAccessInput) {
  return {
    authMethod: input.authMethod ?? null,
    accessCodeHash: input.accessCode ? await hashPassword(input.accessCode.trim()) : null,
    phone: input.phone?.trim() || null,
  };
}
