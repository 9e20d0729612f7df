import { createTranslator } from "next-intl";
import en from "@/messages/en.json" with { type: "json" };
import es from "@/messages/es.json" with { type: "json" };
import type { Locale } from "./locales";

/** The message catalogs (messages/<locale>.json): every borrower-facing sentence lives there, not in code. */
export const CATALOGS = { en, es } satisfies Record<Locale, typeof en>;

/**
 * A translator outside React (emails, texts, server-side error sentences): the same catalogs and ICU
 * syntax the pages use through next-intl.
 */
export function borrowerTranslator<N extends keyof typeof en>(locale: Locale, namespace: N) {
  return createTranslator({ locale, messages: CATALOGS[locale], namespace });
}
