import { createHash, randomBytes } from "node:crypto";

/** How long an invitation link works. */
export const INVITE_TOKEN_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** 32 random bytes in base64url (43 characters): 256 bits, so a plain SHA-256 suffices. */
export const INVITE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Password rules for accepting an invitation; the maximum is what sign-in accepts. */
export const INVITE_PASSWORD_MIN_LENGTH = 12;
export const INVITE_PASSWORD_MAX_LENGTH = 1024;

/** Why an invitation link cannot be used, and what the page says about it. */
export const INVITE_LINK_MESSAGES = {
  invalid: "This invitation link is not valid. Check that you opened the whole link from the email, or ask for a new invitation.",
  superseded: "A newer invitation has been sent to you. Use the link in the most recent invitation email.",
  expired: "This invitation link has expired. Ask your organization's administrator to invite you again.",
  used: "This invitation has already been accepted. Sign in with your email address and password.",
} as const;

export type InviteLinkProblem = keyof typeof INVITE_LINK_MESSAGES;

/** A fresh invitation token and the hash that is stored for it. */
export function generateInviteToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, tokenHash: hashInviteToken(token) };
}

/** Tokens are random, not chosen by people: a fast hash makes a leaked table useless and allows an indexed lookup. */
export function hashInviteToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
