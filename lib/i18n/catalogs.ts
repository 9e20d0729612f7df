import compile from "icu-minify/compile";
import formatMessage from "use-intl/format-message";
import en from "@/messages/en.json" with { type: "json" };
import es from "@/messages/es.json" with { type: "json" };
import type { Locale } from "./locales";

type Catalog = typeof en;

/**
 * The message catalogs (messages/<locale>.json): every borrower-facing sentence lives there, not in code.
 *
 * Inside the Next.js app, next.config.ts points next-intl's formatter (`use-intl/format-message`) at
 * its small "format-only" build, which formats messages compiled ahead of time instead of parsing ICU
 * syntax; the borrower's browser then gets no ICU parser (about 12 kB gzipped). The catalogs are
 * compiled here once, on the server, with the same compiler next-intl's own precompile uses
 * (`icu-minify`), and handed compiled to every translator and to the pages' client provider.
 * Everywhere else (the standalone API, tests, scripts) the formatter is the full one and the catalogs
 * stay plain text. The formatter says which one it is (`raw`: true for the full formatter, false for
 * format-only), so the two can never be paired the wrong way round.
 */
export const PRECOMPILED_MESSAGES = (formatMessage as { raw?: boolean }).raw === false;

export function compileCatalog<T>(messages: T): T {
  // Through JSON, as next-intl's own catalog loader does: the compiler's plural and select branches are
  // null-prototype objects, which React refuses to hand to a client component.
  if (typeof messages === "string") return JSON.parse(JSON.stringify(compile(messages))) as T;
  if (messages === null || typeof messages !== "object") return messages;
  return Object.fromEntries(Object.entries(messages).map(([key, value]) => [key, compileCatalog(value)])) as T;
}

const PLAIN = { en, es } satisfies Record<Locale, Catalog>;

/** Typed as the plain text they are written in; compiled (syntax trees) inside the Next.js app. */
export const CATALOGS: Record<Locale, Catalog> = PRECOMPILED_MESSAGES ? compileCatalog(PLAIN) : PLAIN;
