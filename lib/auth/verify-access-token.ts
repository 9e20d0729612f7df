import { decodeProtectedHeader } from "jose";
import { isClerkConfigured } from "@/lib/env";
import { AUTH_ERRORS, Unauthorized } from "@/lib/errors";
import { verifyClerkAccessToken } from "./clerk";
import { getLocalKeys } from "./local-keys";
import { verifyLocalAccessToken } from "./local-tokens";

export type VerifiedToken = { subject: string; provider: "local" | "clerk" };

const CACHE_LIMIT = 10_000;
/**
 * Tokens already verified, until they expire. A token is immutable and its verification depends only
 * on it and the keys, so a repeat caller skips the signature check (the costliest CPU step of a /v1
 * call, docs/performance.md). Users are still loaded per request, so deactivation applies at once.
 */
const verified = new Map<string, VerifiedToken & { expiresAt: number }>();

function remember(token: string, result: VerifiedToken & { expiresAt: number }): VerifiedToken {
  if (verified.size >= CACHE_LIMIT) verified.delete(verified.keys().next().value!);
  verified.set(token, result);
  return { subject: result.subject, provider: result.provider };
}

/**
 * One entry point for both identity providers (docs/identity.md). Tokens carrying the local key id
 * are checked locally (API-key exchanges and the dev token script mint those even when Clerk is on);
 * everything else goes to Clerk when it is configured. Every failure is the same 401 text.
 */
export async function verifyAccessToken(token: string): Promise<VerifiedToken> {
  const hit = verified.get(token);
  if (hit) {
    if (hit.expiresAt > Date.now() / 1000) return { subject: hit.subject, provider: hit.provider };
    verified.delete(token);
  }
  try {
    const header = decodeProtectedHeader(token);
    if (header.kid === getLocalKeys().kid || !isClerkConfigured()) {
      return remember(token, { ...(await verifyLocalAccessToken(token)), provider: "local" });
    }
    return remember(token, { ...(await verifyClerkAccessToken(token)), provider: "clerk" });
  } catch {
    throw Unauthorized(AUTH_ERRORS.invalid);
  }
}

/** Parses `Authorization: Bearer <token>` with the exact 401 texts of the API contract (`AUTH_ERRORS`). */
export function parseBearer(header: string | null | undefined): string {
  const match = header ? /^Bearer(?:\s+(.*))?$/i.exec(header.trim()) : null;
  if (!match) throw Unauthorized(AUTH_ERRORS.missing);
  const token = (match[1] ?? "").trim();
  if (token === "") throw Unauthorized(AUTH_ERRORS.empty);
  return token;
}
