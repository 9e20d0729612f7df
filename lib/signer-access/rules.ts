import type { AuthThrottleRule } from "@/lib/auth/auth-throttle-rules";
import type { SignerAuthMethod } from "@/db/schema";

/** A signer session ends after 30 minutes without a request… */
export const SIGNER_SESSION_IDLE_MS = 30 * 60_000;
/** …and 12 hours after the link was opened, whatever happens. */
export const SIGNER_SESSION_MAX_MS = 12 * 60 * 60_000;
/** A one-time code is good for 10 minutes. */
export const SIGNER_CODE_TTL_MS = 10 * 60_000;
/** A new code (or a new link) at most once a minute. */
export const SIGNER_RESEND_INTERVAL_MS = 60_000;
/** Wrong codes allowed before the link locks (for AUTH_THROTTLE_LOCK_SECONDS, 15 minutes). */
export const SIGNER_MAX_CODE_FAILURES = 5;

/** Wrong codes per signer: the fifth locks the signer's proof step for 15 minutes. */
export function signerProofRules(signerId: string): AuthThrottleRule[] {
  return [{ key: `signer-proof:${signerId}`, slowAfter: SIGNER_MAX_CODE_FAILURES, lockAfter: SIGNER_MAX_CODE_FAILURES }];
}

/** "Email me a new link" per client address (one per link is enforced on the link row). */
export function newLinkClientRules(clientIp: string): AuthThrottleRule[] {
  return [{ key: `signer-new-link-client:${clientIp}`, slowAfter: 10, lockAfter: 20 }];
}

/** Methods a signed-in account whose email matches the signer's satisfies. */
export const ACCOUNT_SATISFIES: readonly SignerAuthMethod[] = ["link", "email_code", "account"];

export const AUTH_METHOD_LABELS: Record<SignerAuthMethod, string> = {
  link: "Email link",
  email_code: "Code sent by email",
  access_code: "Access code from the sender",
  sms_code: "Code sent by text message",
  account: "Signed in with an account",
  in_person: "In person (identification checked by the host)",
};

/** The cookie of a signer session for one package: one cookie per package, `__Host-` on https. */
export function signerSessionCookieName(packageId: string, secure: boolean): string {
  return `${secure ? "__Host-" : ""}csk-signer-${packageId}`;
}
