import { generateKeyPairSync, randomUUID } from "node:crypto";
import { importPKCS8, SignJWT } from "jose";

/** An RSA key pair in PEM, the form CLERK_JWT_KEY takes. */
export function rsaKeyPair(modulusLength = 2048): { publicPem: string; privatePem: string } {
  const { publicKey, privateKey } = generateKeyPairSync("rsa", {
    modulusLength,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  return { publicPem: publicKey, privatePem: privateKey };
}

/** Stands in for the Clerk instance's signing key: tests set CLERK_JWT_KEY to its public half. */
export const clerkKeys = rsaKeyPair();

/**
 * A token shaped like a Clerk session token (v2 claims), signed RS256 with `clerkKeys` unless another
 * key is given. The random `jti` makes every token distinct: verifyAccessToken caches verified tokens,
 * and RS256 signatures are deterministic, so two tokens minted in the same second would otherwise be
 * the same string.
 */
export async function clerkToken(
  options: {
    privatePem?: string;
    sub?: string;
    azp?: string;
    iat?: number;
    exp?: number;
    nbf?: number;
    /** Extra claims, e.g. the profile a customized session token template adds. */
    claims?: Record<string, unknown>;
  } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const key = await importPKCS8(options.privatePem ?? clerkKeys.privatePem, "RS256");
  return new SignJWT({ ...options.claims, azp: options.azp ?? "http://localhost:3000", sid: "sess_2abc", v: 2, jti: randomUUID() })
    .setProtectedHeader({ alg: "RS256", kid: "ins_2abc", typ: "JWT" })
    .setSubject(options.sub ?? "user_2clerkSubject")
    .setIssuer("https://clerk.example.test")
    .setIssuedAt(options.iat ?? now - 5)
    .setNotBefore(options.nbf ?? now - 10)
    .setExpirationTime(options.exp ?? now + 60)
    .sign(key);
}
