import { AppError, BadRequest, Unavailable } from "@/lib/errors";
import { log } from "@/lib/log";

/**
 * A failed Plaid call → our error. Plaid answers errors as `{ error_type, error_code, error_message }`.
 * A bad public token is the caller's problem (400, with what to do); anything else (credentials,
 * Plaid down, timeouts) is the provider being unavailable to us (503), logged with Plaid's request id.
 */
type PlaidErrorBody = { error_code?: string; error_message?: string; request_id?: string };

export function toBankProviderError(error: unknown, operation: string): AppError {
  if (error instanceof AppError) return error;
  // The SDK throws axios errors: `response` is set when Plaid answered.
  const response = (error as { response?: { status?: number; data?: PlaidErrorBody } } | null)?.response;
  const data = response?.data;
  if (data?.error_code === "INVALID_PUBLIC_TOKEN") {
    return /expired/i.test(data.error_message ?? "")
      ? BadRequest("The public_token has expired (it is valid for 30 minutes). Start the bank link again.")
      : BadRequest("The public_token is invalid or was already exchanged. Start the bank link again.");
  }
  log.error("bank provider call failed", {
    operation,
    status: response?.status,
    errorCode: data?.error_code,
    requestId: data?.request_id,
    error: data ? undefined : error,
  });
  return Unavailable("The bank-linking provider is unavailable. Try again later.");
}
