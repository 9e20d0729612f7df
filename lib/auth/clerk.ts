import { verifyToken } from "@clerk/backend";
import { getEnv } from "@/lib/env";

/**
 * Verifies a Clerk session token. With CLERK_JWT_KEY the check is networkless (the PEM key verifies
 * the RS256 signature locally); otherwise the SDK fetches Clerk's JWKS with the secret key.
 */
export async function verifyClerkAccessToken(token: string): Promise<{ subject: string }> {
  const env = getEnv();
  const result = await verifyToken(token, {
    jwtKey: env.CLERK_JWT_KEY,
    secretKey: env.CLERK_SECRET_KEY,
    authorizedParties: env.CLERK_AUTHORIZED_PARTIES.length > 0 ? env.CLERK_AUTHORIZED_PARTIES : undefined,
  });
  // The SDK reports failures in `errors` rather than throwing.
  const { data, errors } = result as { data?: { sub?: unknown }; errors?: Error[] };
  if (errors?.length || typeof data?.sub !== "string" || data.sub === "") {
    throw new Error(errors?.[0]?.message ?? "token has no subject");
  }
  return { subject: data.sub };
}
