import { createHash, createPrivateKey, createPublicKey, hkdfSync, type KeyObject } from "node:crypto";
import type { JWK } from "jose";
import { getAuthSecret } from "@/lib/env";

export const LOCAL_ISSUER = "urn:closing-signing:local";
export const LOCAL_AUDIENCE = "core-api";
export const LOCAL_ALG = "EdDSA";

export type LocalKeys = { kid: string; privateKey: KeyObject; publicKey: KeyObject; publicJwk: JWK };

// PKCS#8 wrapper for a raw 32-byte Ed25519 seed (RFC 8410).
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/**
 * The local identity provider's signing key, derived from AUTH_SECRET with HKDF. Every process that
 * shares the secret (Next, the standalone core-api, the token script) derives the same Ed25519 key,
 * so nothing private is stored, and verifiers only ever need the public half published in the JWKS.
 */
export function deriveLocalKeys(secret: string): LocalKeys {
  const seed = Buffer.from(hkdfSync("sha256", secret, "closing-signing", "local-access-token-ed25519/v1", 32));
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
  const publicKey = createPublicKey(privateKey);
  const jwk = publicKey.export({ format: "jwk" });
  const kid = createHash("sha256").update(jwk.x ?? "").digest("base64url").slice(0, 16);
  return { kid, privateKey, publicKey, publicJwk: { ...jwk, kid, alg: LOCAL_ALG, use: "sig" } as JWK };
}

let cached: { secret: string; keys: LocalKeys } | undefined;

export function getLocalKeys(): LocalKeys {
  const secret = getAuthSecret();
  if (cached?.secret !== secret) cached = { secret, keys: deriveLocalKeys(secret) };
  return cached.keys;
}

export function getJwks(): { keys: JWK[] } {
  return { keys: [getLocalKeys().publicJwk] };
}
