import { createHash, timingSafeEqual } from "node:crypto";
import { decodeProtectedHeader, importJWK, jwtVerify, type JWK } from "jose";
import type { PlaidApi } from "plaid";
import { z } from "zod";
import { BadRequest, Unauthorized } from "@/lib/errors";
import { log } from "@/lib/log";
import { getPlaidClient } from "./plaid-client";

export type VerifyBankWebhookOptions = {
  /** The request body exactly as received: the JWT's `request_body_sha256` covers these bytes. */
  rawBody: string;
  headers: Headers;
  plaid?: PlaidApi;
  /** Clock for the `iat` check (tests). */
  now?: () => Date;
};

export type BankWebhook = { providerEventId: string; type: string; payload: Record<string, unknown> };

/** Plaid signs a webhook at send time; anything older than this is refused as a possible replay. */
const MAX_AGE_SECONDS = 5 * 60;
/** Verification keys are cached by `kid` for this long, then fetched again (a key can be expired by Plaid). */
const KEY_CACHE_MS = 15 * 60_000;

/**
 * A `kid` the provider refused (unknown, expired, or the lookup failed) is remembered for this long, so
 * a stream of forged webhooks costs one provider call per kid and minute, not one per request.
 */
const NEGATIVE_CACHE_MS = 60_000;
/**
 * Lookups of kids never fetched before, whatever the kid, share this budget per window (per process):
 * the negative cache above holds one kid, but forged webhooks can name a new kid each time. Plaid
 * rotates its keys rarely, so a real new kid fits; when forgeries have used the budget up, a real
 * webhook under a new kid gets 401 and Plaid delivers it again later. Refreshing a key we already
 * had is not counted.
 */
const UNKNOWN_KID_FETCHES_PER_WINDOW = 5;
const UNKNOWN_KID_WINDOW_MS = 60_000;
/** Bounds both caches: forged webhooks can name any number of kids. */
const MAX_CACHED_KIDS = 1000;
/** Plaid's key ids are UUIDs; anything far from that shape is refused without a provider call. */
const KID_SHAPE = /^[A-Za-z0-9_-]{1,100}$/;

const keys = new Map<string, { key: CryptoKey | Uint8Array; fetchedAt: number }>();
const refusedKids = new Map<string, { reason: string; refusedAt: number }>();
/** Kids whose key was fetched at some point (bounded like the caches): their refresh is not budgeted. */
const knownKids = new Set<string>();
const unknownKidBudget = { windowStartedAt: 0, used: 0 };

/** Takes one lookup of a never-seen kid from the window's budget; false when it is used up. */
function takeUnknownKidFetch(now: number): boolean {
  if (now - unknownKidBudget.windowStartedAt >= UNKNOWN_KID_WINDOW_MS || now < unknownKidBudget.windowStartedAt) {
    unknownKidBudget.windowStartedAt = now;
    unknownKidBudget.used = 0;
  }
  if (unknownKidBudget.used >= UNKNOWN_KID_FETCHES_PER_WINDOW) return false;
  unknownKidBudget.used += 1;
  return true;
}

const BodySchema = z.looseObject({ webhook_type: z.string().min(1), webhook_code: z.string().min(1) });

/**
 * Plaid webhook verification (https://plaid.com/docs/api/webhooks/webhook-verification/):
 * the `bank-verification` (Plaid: `Plaid-Verification`) header is an ES256 JWT whose `kid` names a
 * key served by `/webhook_verification_key/get`; keys with `expired_at` set are refused; `iat` must be
 * at most 5 minutes old; the `request_body_sha256` claim must equal the SHA-256 of the raw body
 * (compared in constant time). Every failure is the same 401; the reason is only logged.
 */
export async function verifyBankWebhook(options: VerifyBankWebhookOptions): Promise<BankWebhook> {
  const jwt = options.headers.get("bank-verification") ?? options.headers.get("plaid-verification");
  if (!jwt) throw Unauthorized("Missing bank-verification header.");
  const now = options.now?.() ?? new Date();
  const plaid = options.plaid ?? getPlaidClient();

  // The signed claim is checked against this hash, which also keys the delivery below.
  const bodyHash = createHash("sha256").update(options.rawBody, "utf8").digest("hex");
  let iat: number;
  try {
    const header = decodeProtectedHeader(jwt);
    if (header.alg !== "ES256") throw new Error(`alg ${String(header.alg)} is not ES256`);
    if (!header.kid) throw new Error("no kid in the JWT header");
    const key = await getVerificationKey(header.kid, plaid, now);
    const { payload } = await jwtVerify(jwt, key, { algorithms: ["ES256"], maxTokenAge: MAX_AGE_SECONDS, currentDate: now });
    if (typeof payload.iat !== "number") throw new Error("no iat claim");
    if (payload.iat > now.getTime() / 1000 + 60) throw new Error("iat is in the future");
    const claimed = payload.request_body_sha256;
    if (typeof claimed !== "string") throw new Error("no request_body_sha256 claim");
    const a = Buffer.from(claimed.toLowerCase(), "utf8");
    const b = Buffer.from(bodyHash, "utf8");
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new Error("request_body_sha256 does not match the body");
    iat = payload.iat;
  } catch (error) {
    log.warn("bank webhook rejected", { reason: error instanceof Error ? error.message : String(error) });
    throw Unauthorized("Invalid bank webhook verification.");
  }

  let body: unknown;
  try {
    body = JSON.parse(options.rawBody);
  } catch {
    throw BadRequest("Webhook body is not valid JSON.");
  }
  const parsed = BodySchema.safeParse(body);
  if (!parsed.success) throw BadRequest("Webhook body is not a bank item webhook.");
  // Plaid webhooks carry no event id: the signed body hash plus its signing time identifies a delivery.
  return {
    providerEventId: `${iat}:${bodyHash}`,
    type: `${parsed.data.webhook_type}.${parsed.data.webhook_code}`,
    payload: parsed.data,
  };
}

async function getVerificationKey(kid: string, plaid: PlaidApi, now: Date): Promise<CryptoKey | Uint8Array> {
  if (!KID_SHAPE.test(kid)) throw new Error("kid is not a provider key id");
  const cached = keys.get(kid);
  if (cached && now.getTime() - cached.fetchedAt < KEY_CACHE_MS) return cached.key;
  const refused = refusedKids.get(kid);
  if (refused && now.getTime() - refused.refusedAt < NEGATIVE_CACHE_MS) throw new Error(`${refused.reason} (cached)`);
  // Counted before the await, so parallel requests naming different kids cannot all pass the check.
  if (!knownKids.has(kid) && !takeUnknownKidFetch(now.getTime())) throw new Error("too many lookups of unknown kids in this minute");
  // A failed fetch (unknown kid, Plaid down) answers 401 and Plaid retries later; the refusal is cached briefly.
  try {
    const { data } = await plaid.webhookVerificationKeyGet({ key_id: kid });
    if (data.key.expired_at !== null && data.key.expired_at !== undefined) throw new Error(`verification key ${kid} is expired`);
    const { created_at: _created, expired_at: _expired, ...jwk } = data.key;
    const key = await importJWK(jwk as JWK, "ES256");
    remember(keys, kid, { key, fetchedAt: now.getTime() });
    if (knownKids.size >= MAX_CACHED_KIDS) knownKids.delete(knownKids.values().next().value!);
    knownKids.add(kid);
    refusedKids.delete(kid);
    return key;
  } catch (error) {
    keys.delete(kid);
    const reason = error instanceof Error ? error.message : String(error);
    remember(refusedKids, kid, { reason: `verification key lookup failed: ${reason}`, refusedAt: now.getTime() });
    throw error;
  }
}

/** Inserts into a bounded cache, dropping the oldest entry (Map keeps insertion order) when full. */
function remember<V>(cache: Map<string, V>, kid: string, value: V): void {
  cache.delete(kid);
  if (cache.size >= MAX_CACHED_KIDS) cache.delete(cache.keys().next().value!);
  cache.set(kid, value);
}
