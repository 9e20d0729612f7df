import { CountryCode, Products, type PlaidApi } from "plaid";
import { getEnv } from "@/lib/env";
import { getPlaidClient } from "./plaid-client";
import { toBankProviderError } from "./to-bank-provider-error";

export type CreateLinkTokenOptions = { userId: string; plaid?: PlaidApi };

/**
 * A Link token for the signed-in user: `client_user_id` is our user id (Plaid ties the session to
 * it), item webhooks go to `{APP_URL}/api/webhooks/bank`. Short-lived; used at once by the browser.
 */
export async function createLinkToken(options: CreateLinkTokenOptions): Promise<{ link_token: string; expiration: string }> {
  const plaid = options.plaid ?? getPlaidClient();
  try {
    const { data } = await plaid.linkTokenCreate({
      client_name: "Closing & Signing",
      language: "en",
      country_codes: [CountryCode.Us],
      user: { client_user_id: options.userId },
      products: [Products.Auth],
      optional_products: [Products.Transactions],
      webhook: new URL("/api/webhooks/bank", getEnv().APP_URL).toString(),
    });
    return { link_token: data.link_token, expiration: data.expiration };
  } catch (error) {
    throw toBankProviderError(error, "link/token/create");
  }
}
