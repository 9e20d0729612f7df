import { AppError, toErrorResponse } from "@/lib/errors";

/**
 * The sentence a signer's form shows for an error: a domain error's own message (they are written
 * for people), "briefly unavailable" while the database is down, otherwise `fallback` (the error is
 * logged by `toErrorResponse`).
 */
export function actionErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof AppError && error.code === "not_found") return "We could not find this in your signing package. Reload the page to see its current state.";
  const { status, body } = toErrorResponse(error);
  return status >= 500 && status !== 503 ? fallback : body.error;
}
