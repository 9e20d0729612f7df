import { CountryCode, Products, type PlaidApi } from "plaid";
import { getEnv } from "@/lib/env";
import { plaidClientUserId, type BankOwner } from "./bank-owner";
import { getPlaidClient } from "./plaid-client";
import { toBankProviderError } from "./to-bank-provider-error";

export type CreateLinkTokenOptions = { owner: BankOwner; plaid?: PlaidApi };

/**
 * A Link token for the person linking: `client_user_id` is our user id, or `signer:<signer id>` for
 * a signer session (Plaid ties the session to it; never an email or a name), item webhooks go to `{APP_URL}/api/webhooks/bank`. Short-lived; used at once by the browser.
 */
export async function createLinkToken(options: CreateLinkTokenOptions): Promise<{ link_token: string; expiration: string }> {
  const plaid = options.plaid ?? getPlaidClient();
  try {
    const { data } = await plaid.linkTokenCreate({
      client_name: "Closing & Signing",
      language: "en",
      country_codes: [CountryCode.Us],
      user: { client_user_id: plaidClientUserId(options.owner) },
      products: [Products.Auth],
      optional_products: [Products.Transactions],
      webhook: new URL("/api/webhooks/bank", getEnv().APP_URL).toString(),
    });
    return { link_token: data.link_token, expiration: data.expiration };
  } catch (error) {
    throw toBankProviderError(error, "link/token/create");
  }
}
