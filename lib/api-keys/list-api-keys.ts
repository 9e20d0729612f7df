import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { apiKeys } from "@/db/schema";
import { serializeApiKey, type ApiKeySummary } from "./serialize-api-key";

export type ListApiKeysOptions = { userId: string };

/** The user's own keys, newest first, without their hashes. */
export async function listApiKeys(db: Db, options: ListApiKeysOptions): Promise<ApiKeySummary[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.userId, options.userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  const now = new Date();
  return rows.map((row) => serializeApiKey(row, now));
}
