import { pgEnum } from "drizzle-orm/pg-core";

/**
 * How a signer proves who they are after opening the emailed link: the link alone, a code mailed
 * to them (the default), an access code the lender gave them out of band, a code texted to their
 * phone, or signing in with an account. `in_person` is never chosen for a package: it is how a
 * session started at the lender's desk passed (the host checked the signer's identification).
 */
export const signerAuthMethodEnum = pgEnum("signer_auth_method", ["link", "email_code", "access_code", "sms_code", "account", "in_person"]);

export type SignerAuthMethod = (typeof signerAuthMethodEnum.enumValues)[number];
export const SIGNER_AUTH_METHODS = signerAuthMethodEnum.enumValues;

/** A method a package, template or signer can ask for (every method but `in_person`). */
export type SignerProofMethod = Exclude<SignerAuthMethod, "in_person">;
export const SIGNER_PROOF_METHODS = SIGNER_AUTH_METHODS.filter((m): m is SignerProofMethod => m !== "in_person") as [SignerProofMethod, ...SignerProofMethod[]];
