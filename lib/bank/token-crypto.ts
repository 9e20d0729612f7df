import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getEnv, type Env } from "@/lib/env";

/**
 * AES-256-GCM for bank access tokens at rest. Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url),
 * with the item id as additional authenticated data, so a ciphertext copied onto another row fails
 * to decrypt.
 */
const VERSION = "v1";

/** BANK_TOKEN_ENCRYPTION_KEY as 32 bytes, or null when it is unset or not 32 bytes of base64. */
export function loadBankTokenKey(env: Env = getEnv()): Buffer | null {
  const raw = env.BANK_TOKEN_ENCRYPTION_KEY;
  if (!raw || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) return null;
  const key = Buffer.from(raw.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return key.length === 32 ? key : null;
}

export function encryptBankToken(plaintext: string, options: { key: Buffer; itemId: string }): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", options.key, iv);
  cipher.setAAD(Buffer.from(options.itemId, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
}

/** Throws when the key, the item id or any byte of the stored value is wrong. */
export function decryptBankToken(stored: string, options: { key: Buffer; itemId: string }): string {
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Unrecognized bank token ciphertext.");
  const decipher = createDecipheriv("aes-256-gcm", options.key, Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(options.itemId, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}
