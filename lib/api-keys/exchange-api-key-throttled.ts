import type { Db } from "@/db/client";
import { exchangeApiKey, type ExchangedToken } from "@/lib/api-keys/exchange-api-key";
import { AppError, TooManyRequests } from "@/lib/errors";
import { apiKeyExchangeRules, tooManyAttemptsMessage } from "@/lib/auth/auth-throttle-rules";
import { checkAuthThrottle } from "@/lib/auth/check-auth-throttle";
import { recordAuthFailure } from "@/lib/auth/record-auth-failure";

export type ExchangeApiKeyThrottledOptions = {
  apiKey: string;
  clientIp: string;
  now?: Date;
  wait?: (ms: number) => Promise<void>;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `exchangeApiKey` behind the failed-attempt throttle per client: refused keys (unknown, revoked,
 * malformed) count; after a few the answers are slowed, then the client gets 429 with Retry-After
 * for a while, even for a valid key, so keys cannot be guessed at speed.
 */
export async function exchangeApiKeyThrottled(db: Db, options: ExchangeApiKeyThrottledOptions): Promise<ExchangedToken> {
  const rules = apiKeyExchangeRules({ clientIp: options.clientIp });
  const state = await checkAuthThrottle(db, { rules, now: options.now });
  if (state.refused) throw TooManyRequests(tooManyAttemptsMessage(state.retryAfterSeconds), state.retryAfterSeconds);
  if (state.delayMs > 0) await (options.wait ?? sleep)(state.delayMs);
  try {
    return await exchangeApiKey(db, { apiKey: options.apiKey, now: options.now });
  } catch (error) {
    if (error instanceof AppError && (error.code === "unauthorized" || error.code === "bad_request")) {
      const retryAfterSeconds = await recordAuthFailure(db, { rules, now: options.now });
      if (retryAfterSeconds > 0) throw TooManyRequests(tooManyAttemptsMessage(retryAfterSeconds), retryAfterSeconds);
    }
    throw error;
  }
}
