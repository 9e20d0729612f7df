import { createPublicKey } from "node:crypto";
import { verifyToken } from "@clerk/backend";
import { decodeProtectedHeader } from "jose";
import { clerkAuthorizedParties, getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { clerkSigningKey } from "./clerk-key-set";

/**
 * Verifies a Clerk session token and returns its subject (the Clerk user id) and expiry (`exp`, epoch
 * seconds; verifyAccessToken caches the result until then). With CLERK_JWT_KEY the
 * check is networkless (the PEM key verifies the RS256 signature locally); otherwise the key comes
 * from Clerk's key set fetched with the secret key (`clerkSigningKey`: cached, and refetched for an
 * unknown `kid` at most once per cooldown, where the SDK would fetch for every unknown `kid`). The SDK also checks `alg` (RS256/384/512 only, so `alg: none`
 * never passes), `exp`/`nbf`/`iat` with 5 s of clock skew, and `azp` against APP_URL's origin and CLERK_AUTHORIZED_PARTIES (so a token without `azp` fails too).
 *
 * SDK quirks (checked against @clerk/backend 3.20.1):
 * - the exported `verifyToken` throws on failure and resolves to the bare payload on success; the
 *   `{ data, errors }` shape exists only on the internal function.
 * - the PEM is turned into a JWK by cutting a fixed prefix and suffix off the base64 text, so only a
 *   2048-bit RSA key with exponent 65537 works (what Clerk issues); any other key rejects every token.
 */
export async function verifyClerkAccessToken(token: string): Promise<{ subject: string; expiresAt: number }> {
  const env = getEnv();
  const payload = await verifyToken(token, {
    jwtKey: env.CLERK_JWT_KEY ? clerkJwtKey(env.CLERK_JWT_KEY) : await keyFromKeySet(token, env.CLERK_API_URL, env.CLERK_SECRET_KEY),
    authorizedParties: clerkAuthorizedParties(env),
  });
  if (typeof payload.sub !== "string" || payload.sub === "") throw new Error("Clerk token has no subject");
  if (typeof payload.exp !== "number") throw new Error("Clerk token has no expiry");
  return { subject: payload.sub, expiresAt: payload.exp };
}

let checked: { pem: string; key?: string; error?: string } | undefined;

/**
 * CLERK_JWT_KEY in the form the SDK can use, however it was pasted (one line, `\n` escapes as in many
 * .env files, or real newlines); a key the SDK cannot use fails with a message in the log instead of
 * a silent 401 on every request.
 */
export function clerkJwtKey(pem: string): string {
  if (checked?.pem !== pem) {
    checked = { pem };
    try {
      const body = pem.replace(/\\n/g, "").replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "").replace(/\s/g, "");
      const key = createPublicKey({ key: Buffer.from(body, "base64"), format: "der", type: "spki" });
      const details = key.asymmetricKeyDetails;
      if (key.asymmetricKeyType !== "rsa" || details?.modulusLength !== 2048 || details.publicExponent !== 65537n) {
        throw new Error(`a ${details?.modulusLength ?? "?"}-bit ${key.asymmetricKeyType ?? "?"} key`);
      }
      checked.key = key.export({ type: "spki", format: "pem" }).toString();
    } catch (error) {
      checked.error = `CLERK_JWT_KEY must be Clerk's 2048-bit RSA public key (PEM); got ${error instanceof Error ? error.message : String(error)}`;
      log.error("clerk jwt key unusable", { reason: checked.error });
    }
  }
  if (checked.error !== undefined || checked.key === undefined) throw new Error(checked.error);
  return checked.key;
}

/** The signing key named by the token's `kid`, from Clerk's key set; a token without a usable `kid` fails here. */
async function keyFromKeySet(token: string, apiUrl: string, secretKey: string | undefined): Promise<string> {
  if (!secretKey) throw new Error("Clerk needs CLERK_JWT_KEY or CLERK_SECRET_KEY to verify tokens");
  const { kid } = decodeProtectedHeader(token);
  if (typeof kid !== "string" || kid === "" || kid.length > 200) throw new Error("Clerk token has no usable kid");
  const pem = await clerkSigningKey(kid, { apiUrl, secretKey });
  if (!pem) throw new Error("Clerk token signed with a key not in the instance's key set");
  return pem;
}
