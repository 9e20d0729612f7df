import { createPublicKey, type JsonWebKey } from "node:crypto";
import { z } from "zod";
import { log } from "@/lib/log";

/** Keys fetched from Clerk are used for this long before the set is fetched again. */
export const CLERK_KEY_SET_TTL_MS = 60 * 60_000;
/**
 * However many unknown `kid`s arrive, the key set is fetched again at most once per this interval:
 * a flood of tokens with made-up key ids costs at most one Backend API call per 5 minutes. (Clerk's
 * SDK refetches for every unknown `kid`.) A real rotation is picked up at the next allowed refetch.
 */
export const CLERK_KEY_SET_COOLDOWN_MS = 5 * 60_000;

const JwksSchema = z.object({ keys: z.array(z.looseObject({ kid: z.string().min(1), kty: z.string() })) });

type KeySet = { keys: Map<string, string>; fetchedAt: number };

let keySet: KeySet | undefined;
let lastAttemptAt = Number.NEGATIVE_INFINITY;
let inFlight: Promise<KeySet | undefined> | undefined;

/**
 * The PEM of Clerk's signing key `kid`, from the instance's key set (`GET <CLERK_API_URL>/v1/jwks`
 * with the secret key), or null when the set has no such key. An unknown `kid` triggers a refetch
 * only when the last attempt is older than the cooldown; concurrent callers share one fetch.
 */
export async function clerkSigningKey(kid: string, options: { apiUrl: string; secretKey: string; now?: number }): Promise<string | null> {
  const now = options.now ?? Date.now();
  const fresh = keySet && now - keySet.fetchedAt < CLERK_KEY_SET_TTL_MS ? keySet : undefined;
  const known = fresh?.keys.get(kid);
  if (known) return known;
  if (now - lastAttemptAt < CLERK_KEY_SET_COOLDOWN_MS) return keySet?.keys.get(kid) ?? null;
  lastAttemptAt = now;
  inFlight ??= fetchKeySet(options.apiUrl, options.secretKey, now).finally(() => (inFlight = undefined));
  const fetched = await inFlight;
  if (fetched) keySet = fetched;
  return keySet?.keys.get(kid) ?? null;
}

/** Forgets the cached key set and the cooldown (tests). */
export function resetClerkKeySet(): void {
  keySet = undefined;
  lastAttemptAt = Number.NEGATIVE_INFINITY;
  inFlight = undefined;
}

async function fetchKeySet(apiUrl: string, secretKey: string, now: number): Promise<KeySet | undefined> {
  try {
    const url = new URL(apiUrl);
    url.pathname = `${url.pathname.replace(/\/$/, "")}/v1/jwks`;
    const response = await fetch(url, { headers: { Authorization: `Bearer ${secretKey}` }, signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`Clerk answered ${response.status} for the key set`);
    const { keys } = JwksSchema.parse(await response.json());
    const pems = new Map<string, string>();
    for (const jwk of keys) {
      if (jwk.kty !== "RSA") continue;
      pems.set(jwk.kid, createPublicKey({ key: jwk as JsonWebKey, format: "jwk" }).export({ type: "spki", format: "pem" }).toString());
    }
    return { keys: pems, fetchedAt: now };
  } catch (error) {
    log.warn("clerk key set not fetched", { reason: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}
