import { decodeProtectedHeader } from "jose";
import { isClerkConfigured } from "@/lib/env";
import { AUTH_ERRORS, Unauthorized } from "@/lib/errors";
import { verifyClerkAccessToken } from "./clerk";
import { getLocalKeys } from "./local-keys";
import { verifyLocalAccessToken } from "./local-tokens";

export type VerifiedToken = { subject: string; provider: "local" | "clerk" };

/**
 * One entry point for both identity providers (ARCHITECTURE §3). Tokens carrying the local key id
 * are checked locally (API-key exchanges and the dev token script mint those even when Clerk is on);
 * everything else goes to Clerk when it is configured. Every failure is the same 401 text.
 */
export async function verifyAccessToken(token: string): Promise<VerifiedToken> {
  try {
    const header = decodeProtectedHeader(token);
    if (header.kid === getLocalKeys().kid || !isClerkConfigured()) {
      return { ...(await verifyLocalAccessToken(token)), provider: "local" };
    }
    return { ...(await verifyClerkAccessToken(token)), provider: "clerk" };
  } catch {
    throw Unauthorized(AUTH_ERRORS.invalid);
  }
}

/** Parses `Authorization: Bearer <token>` with the exact texts of spec §7. */
export function parseBearer(header: string | null | undefined): string {
  const match = header ? /^Bearer(?:\s+(.*))?$/i.exec(header.trim()) : null;
  if (!match) throw Unauthorized(AUTH_ERRORS.missing);
  const token = (match[1] ?? "").trim();
  if (token === "") throw Unauthorized(AUTH_ERRORS.empty);
  return token;
}
