import { AppError, toErrorResponse } from "@/lib/errors";
import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";

/**
 * The sentence a signer's form shows for an error, in the signer's language: in English a domain
 * error's own message (they are written for people); in another language the catalog's sentence for
 * the error's `reason` (messages/<locale>.json, `errors`), since domain messages are English.
 * "Briefly unavailable" while the database is down; otherwise `fallback` (the error is logged by
 * `toErrorResponse`).
 */
export function actionErrorMessage(error: unknown, fallback: string, locale: Locale = "en"): string {
  const t = borrowerTranslator(locale, "errors");
  if (error instanceof AppError && error.code === "not_found") return t("not_found");
  const { status, body } = toErrorResponse(error);
  if (status >= 500 && status !== 503) return fallback;
  if (locale === "en") return body.error;
  if (body.reason) return t(body.reason);
  return status === 503 ? t("unavailable") : t("generic");
}
