import { Configuration, PlaidApi, PlaidEnvironments } from "plaid";
import { getEnv, type Env } from "@/lib/env";
import { Unavailable } from "@/lib/errors";

const clients = new Map<string, PlaidApi>();

/**
 * The Plaid SDK client for the configured credentials, at PLAID_BASE_URL when set (a proxy, or the
 * fake in tests) or else the PLAID_ENV host. Unconfigured: 503, the bank features are off.
 */
export function getPlaidClient(env: Env = getEnv()): PlaidApi {
  if (!env.PLAID_CLIENT_ID || !env.PLAID_SECRET) throw Unavailable("Bank linking is not configured.");
  const basePath = env.PLAID_BASE_URL ?? PlaidEnvironments[env.PLAID_ENV]!;
  const cacheKey = `${basePath}\n${env.PLAID_CLIENT_ID}\n${env.PLAID_SECRET}`;
  let client = clients.get(cacheKey);
  if (!client) {
    client = new PlaidApi(
      new Configuration({
        basePath,
        baseOptions: {
          timeout: 10_000,
          headers: { "PLAID-CLIENT-ID": env.PLAID_CLIENT_ID, "PLAID-SECRET": env.PLAID_SECRET },
        },
      }),
    );
    clients.set(cacheKey, client);
  }
  return client;
}
