import { pgEnum } from "drizzle-orm/pg-core";

/**
 * How a signer proves who they are after opening the emailed link: the link alone, a code mailed
 * to them (the default), an access code the lender gave them out of band, a code texted to their
 * phone, or signing in with an account.
 */
export const signerAuthMethodEnum = pgEnum("signer_auth_method", ["link", "email_code", "access_code", "sms_code", "account"]);

export type SignerAuthMethod = (typeof signerAuthMethodEnum.enumValues)[number];
export const SIGNER_AUTH_METHODS = signerAuthMethodEnum.enumValues;
