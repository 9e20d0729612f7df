import { getPlaidClient } from "./plaid-client";

/** 503 `Bank linking is not configured.` unless the Plaid credentials are set. */
export function assertBankConfigured(): void {
  getPlaidClient();
}
