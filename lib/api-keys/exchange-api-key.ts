import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys, users } from "@/db/schema";
import { issueLocalAccessToken } from "@/lib/auth/local-tokens";
import { BadRequest, Unauthorized } from "@/lib/errors";
import { API_KEY_PATTERN, hashApiKey } from "./api-key-format";

export type ExchangeApiKeyOptions = { apiKey: string; now?: Date };

export type ExchangedToken = { token: string; tokenType: "Bearer"; expiresIn: number; expiresAt: string };

export const INVALID_API_KEY = "Invalid, revoked or expired API key.";

/**
 * Trades a personal API key for a fresh short-lived access token for `/v1` (docs/identity.md).
 * The key is found by its hash; revoked, expired, unknown keys and inactive owners look the same.
 */
export async function exchangeApiKey(db: Db, options: ExchangeApiKeyOptions): Promise<ExchangedToken> {
  if (!API_KEY_PATTERN.test(options.apiKey)) throw BadRequest("apiKey must be a personal API key (csk_…).");
  const now = options.now ?? new Date();
  const [row] = await db
    .select({
      id: apiKeys.id,
      revokedAt: apiKeys.revokedAt,
      expiresAt: apiKeys.expiresAt,
      authSubject: users.authSubject,
      isActive: users.isActive,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, hashApiKey(options.apiKey)))
    .limit(1);
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now) || !row.isActive || !row.authSubject) {
    throw Unauthorized(INVALID_API_KEY);
  }
  await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id));
  const issued = await issueLocalAccessToken({ subject: row.authSubject });
  return {
    token: issued.token,
    tokenType: "Bearer",
    expiresIn: Math.max(0, Math.round((issued.expiresAt.getTime() - Date.now()) / 1000)),
    expiresAt: issued.expiresAt.toISOString(),
  };
}
