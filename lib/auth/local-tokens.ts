import { randomUUID } from "node:crypto";
import { jwtVerify, SignJWT } from "jose";
import { getEnv } from "@/lib/env";
import { getLocalKeys, LOCAL_ALG, LOCAL_AUDIENCE, LOCAL_ISSUER } from "./local-keys";

export type IssuedToken = { token: string; expiresAt: Date };

/** A short-lived access token for `/v1`, signed by the local identity provider. */
export async function issueLocalAccessToken(options: { subject: string; ttlSeconds?: number }): Promise<IssuedToken> {
  const ttl = options.ttlSeconds ?? getEnv().ACCESS_TOKEN_TTL_SECONDS;
  const { kid, privateKey } = getLocalKeys();
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: LOCAL_ALG, kid, typ: "JWT" })
    .setIssuer(LOCAL_ISSUER)
    .setAudience(LOCAL_AUDIENCE)
    .setSubject(options.subject)
    .setIssuedAt(now)
    .setExpirationTime(now + ttl)
    .setJti(randomUUID())
    .sign(privateKey);
  return { token, expiresAt: new Date((now + ttl) * 1000) };
}

/** Verifies signature, algorithm (EdDSA only, so `alg: none` never passes), issuer, audience and expiry. */
export async function verifyLocalAccessToken(token: string): Promise<{ subject: string; expiresAt: number }> {
  const { payload } = await jwtVerify(token, getLocalKeys().publicKey, {
    algorithms: [LOCAL_ALG],
    issuer: LOCAL_ISSUER,
    audience: LOCAL_AUDIENCE,
    requiredClaims: ["sub", "exp", "iat"],
  });
  return { subject: payload.sub as string, expiresAt: payload.exp! };
}

export function localSubjectForEmail(email: string): string {
  return `local|${email.trim().toLowerCase()}`;
}
