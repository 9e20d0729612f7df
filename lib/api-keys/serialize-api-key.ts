import type { ApiKey } from "@/db/schema";

export type ApiKeySummary = Omit<ApiKey, "keyHash"> & { state: "active" | "revoked" | "expired" };

/** What may leave the domain layer about a key: everything except its hash. */
export function serializeApiKey(row: ApiKey, now: Date = new Date()): ApiKeySummary {
  const { keyHash: _keyHash, ...rest } = row;
  const state = row.revokedAt ? "revoked" : row.expiresAt && row.expiresAt <= now ? "expired" : "active";
  return { ...rest, state };
}
