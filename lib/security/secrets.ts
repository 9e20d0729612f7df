import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "@/lib/env";

/** A fresh link token or session value: 32 random bytes (256 bits), base64url (43 characters). */
export function newOpaqueToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What is stored for a token or a session value: its SHA-256, hex. */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** The shape of a token we issue; anything else is answered like an unknown link without a lookup. */
export function isOpaqueTokenShape(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** A one-time code: six digits from the CSPRNG, leading zeros kept. */
export function newOneTimeCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/** The stored form of a one-time code: HMAC-SHA-256 under the auth secret, bound to its challenge. */
export function codeHmac(challengeId: string, code: string): string {
  return createHmac("sha256", getAuthSecret()).update(`signer-code:${challengeId}:${code}`).digest("hex");
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}

/** A code as typed: digits only ("123 456", "123-456" accepted). */
export function normalizeCode(value: string): string {
  return value.replace(/[\s-]/g, "");
}

/**
 * An access link's token, computed from its row id under the auth secret: 32 bytes of HMAC-SHA-256,
 * base64url (43 characters, the shape of `newOpaqueToken`). Only its SHA-256 is stored, as for any
 * token, and the email or text job computes it again when it sends the link, so the token is never
 * written anywhere (not in the job's payload, not in an event). Changing AUTH_SECRET invalidates
 * every access link, as it already did.
 */
export function accessLinkToken(linkId: string): string {
  return createHmac("sha256", getAuthSecret()).update(`signer-access-link:${linkId}`).digest("base64url");
}

/**
 * A challenge's one-time code, computed from its id under the auth secret (six digits, leading zeros
 * kept): the email job computes it when it sends the mail, so the code is never written anywhere,
 * and a retried job sends the same code again (one valid code per challenge).
 */
export function challengeCode(challengeId: string): string {
  const digest = createHmac("sha256", getAuthSecret()).update(`signer-code-value:${challengeId}`).digest();
  return String(digest.readBigUInt64BE(0) % 1_000_000n).padStart(6, "0");
}

/** A settlement agent link's token, computed from its row id like `accessLinkToken` (another purpose, another value). */
export function agentLinkToken(linkId: string): string {
  return createHmac("sha256", getAuthSecret()).update(`settlement-agent-link:${linkId}`).digest("base64url");
}

/** A workspace invitation's token (`/accept-invite?token=…`), computed from its row id like `accessLinkToken`. */
export function inviteLinkToken(inviteTokenId: string): string {
  return createHmac("sha256", getAuthSecret()).update(`user-invite:${inviteTokenId}`).digest("base64url");
}
