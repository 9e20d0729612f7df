import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getAuthSecret } from "@/lib/env";

/**
 * Endpoint signing secrets at rest. Signing needs the secret itself (HMAC), so it is encrypted, not
 * hashed: AES-256-GCM under a key derived from AUTH_SECRET (HKDF, its own label), with the endpoint
 * id as additional data so a ciphertext copied onto another endpoint fails to decrypt.
 * Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url). Changing AUTH_SECRET makes stored secrets
 * unreadable: rotate every endpoint's secret afterwards (docs/webhooks.md).
 */
const VERSION = "v1";

function key(): Buffer {
  return Buffer.from(hkdfSync("sha256", getAuthSecret(), "", "webhook-endpoint-secret", 32));
}

/** A new Standard Webhooks secret: `whsec_` + 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function encryptWebhookSecret(secret: string, endpointId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  cipher.setAAD(Buffer.from(endpointId, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

/** Throws when the key, the endpoint id or any byte of the stored value is wrong. */
export function decryptWebhookSecret(stored: string, endpointId: string): string {
  const [version, iv, tag, ciphertext] = stored.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Unrecognized webhook secret ciphertext.");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(endpointId, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}
