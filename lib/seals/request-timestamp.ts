import { getEnv } from "@/lib/env";
import { buildTimestampQuery, readTimestampToken, tokenOfTimestampReply, tokenStamps } from "./timestamp-token";

export const TSA_TIMEOUT_MS = 20_000;
const MAX_REPLY_BYTES = 256 * 1024;

export const TIMESTAMP_UNAVAILABLE = "TimestampUnavailableError";

/**
 * The time-stamp authority could not give a usable timestamp (unreachable, an HTTP error, a refusal,
 * or a token that does not stamp what was asked). The seal is not made without one: the seal job
 * retries, and keeps waiting past its last attempt (`seal-package-job.ts`).
 */
export class TimestampUnavailableError extends Error {
  override name = TIMESTAMP_UNAVAILABLE;
}

export type Timestamp = { token: Buffer; genTime: Date };

/** Whether seals are time-stamped (`TSA_URL` is set). */
export function isTimestampingConfigured(): boolean {
  return Boolean(getEnv().TSA_URL);
}

/**
 * Asks the configured authority (`TSA_URL`, basic auth from `TSA_USERNAME`/`TSA_PASSWORD`) for an
 * RFC 3161 timestamp over `data` (SHA-256 imprint, a fresh nonce, the TSA's certificate requested)
 * and returns the TimeStampToken after checking that it stamps exactly `data`, echoes the nonce and
 * is signed intact by a certificate it carries. Throws `TimestampUnavailableError` otherwise.
 */
export async function requestTimestamp(data: Buffer): Promise<Timestamp> {
  const env = getEnv();
  if (!env.TSA_URL) throw new TimestampUnavailableError("TSA_URL is not set");
  const authority = new URL(env.TSA_URL).host;
  const { query, nonce } = buildTimestampQuery(data);
  const headers: Record<string, string> = { "content-type": "application/timestamp-query", accept: "application/timestamp-reply" };
  if (env.TSA_USERNAME && env.TSA_PASSWORD) headers.authorization = `Basic ${Buffer.from(`${env.TSA_USERNAME}:${env.TSA_PASSWORD}`).toString("base64")}`;
  let reply: Buffer;
  try {
    const response = await fetch(env.TSA_URL, { method: "POST", headers, body: new Uint8Array(query), signal: AbortSignal.timeout(TSA_TIMEOUT_MS), redirect: "error" });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    reply = Buffer.from(await response.arrayBuffer());
    if (reply.length > MAX_REPLY_BYTES) throw new Error("reply too large");
  } catch (error) {
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new TimestampUnavailableError(`time-stamp authority ${authority} unavailable: ${reason}`);
  }
  try {
    const token = tokenOfTimestampReply(reply);
    const info = readTimestampToken(token);
    if (!tokenStamps(info, data)) throw new Error("the token does not stamp the signature, or its own signature does not verify");
    if (!info.nonce?.equals(nonce)) throw new Error("the token does not echo the request's nonce");
    return { token, genTime: info.genTime };
  } catch (error) {
    throw new TimestampUnavailableError(`time-stamp authority ${authority}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
