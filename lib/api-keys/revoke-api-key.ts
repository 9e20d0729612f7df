import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { serializeApiKey, type ApiKeySummary } from "./serialize-api-key";

export type RevokeApiKeyOptions = { userId: string; apiKeyId: string };

/**
 * Revokes one of the user's own keys. Revoking a revoked key changes nothing and answers the key
 * as it is; someone else's key is 404, as if it did not exist.
 */
export async function revokeApiKey(db: Db, options: RevokeApiKeyOptions): Promise<ApiKeySummary> {
  if (!isUuid(options.apiKeyId)) throw NotFound("API key not found.");
  const owned = and(eq(apiKeys.id, options.apiKeyId), eq(apiKeys.userId, options.userId));
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(owned, isNull(apiKeys.revokedAt)))
    .returning();
  if (revoked) return serializeApiKey(revoked);
  const [existing] = await db.select().from(apiKeys).where(owned).limit(1);
  if (!existing) throw NotFound("API key not found.");
  return serializeApiKey(existing);
}
