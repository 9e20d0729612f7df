import type { Db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { generateApiKey } from "./api-key-format";
import { serializeApiKey, type ApiKeySummary } from "./serialize-api-key";

export type CreateApiKeyOptions = { userId: string; name: string; expiresInDays?: number | null };

export type CreatedApiKey = { apiKey: ApiKeySummary; key: string };

/** Creates a personal API key. The clear key is returned here once and never stored. */
export async function createApiKey(db: Db, options: CreateApiKeyOptions): Promise<CreatedApiKey> {
  const { key, prefix, keyHash } = generateApiKey();
  const expiresAt = options.expiresInDays ? new Date(Date.now() + options.expiresInDays * 86_400_000) : null;
  const [row] = await db
    .insert(apiKeys)
    .values({ userId: options.userId, name: options.name.trim(), prefix, keyHash, expiresAt })
    .returning();
  return { apiKey: serializeApiKey(row!), key };
}
