import { createHash, randomBytes } from "node:crypto";

/** `csk_` + 32 random bytes in base64url (43 characters): 256 bits, so a plain SHA-256 suffices. */
export const API_KEY_PREFIX = "csk_";
export const API_KEY_PATTERN = /^csk_[A-Za-z0-9_-]{43}$/;
/** How much of the key is kept in clear so its owner can recognise it in the list. */
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;

export function generateApiKey(): { key: string; prefix: string; keyHash: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
  return { key, prefix: key.slice(0, DISPLAY_PREFIX_LENGTH), keyHash: hashApiKey(key) };
}

/**
 * Keys are high-entropy random strings, not passwords: a fast hash is enough to make a leaked
 * table useless, and it lets the exchange find the key by an indexed equality lookup.
 */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}
