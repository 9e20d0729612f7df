import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import format from "icu-minify/format";
import { IntlMessageFormat } from "intl-messageformat";
import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import { compileCatalog, CATALOGS, PRECOMPILED_MESSAGES } from "@/lib/i18n/catalogs";
import { flattenCatalog } from "../helpers/catalogs";

/**
 * Inside the Next.js app the catalogs are compiled (lib/i18n/catalogs.ts) and formatted by next-intl's
 * small formatter, which the borrower's browser runs too. Every message must then read exactly as the
 * reference ICU implementation (intl-messageformat, what next-intl uses without precompiling) reads
 * the catalog's own text: same words, same arguments, same plural and select branches, same tags.
 */

type Values = Record<string, string | number | ((chunks: unknown[]) => string)>;

function walk(elements: MessageFormatElement[], visit: (element: MessageFormatElement) => void) {
  for (const element of elements) {
    visit(element);
    if (element.type === TYPE.plural || element.type === TYPE.select) for (const option of Object.values(element.options)) walk(option.value, visit);
    if (element.type === TYPE.tag) walk(element.children, visit);
  }
}

/** Values for a message: each variant of its plural and select arguments, text for the rest, tags that show themselves. */
function valueSets(message: string): Values[] {
  const base: Values = {};
  const variants: Values[] = [];
  walk(parse(message), (element) => {
    if (element.type === TYPE.argument) base[element.value] ??= `«${element.value}»`;
    if (element.type === TYPE.tag) base[element.value] = (chunks) => `<${element.value}>${chunks.join("")}</${element.value}>`;
    // A message with several plurals varies each in turn; the others keep a count of their own.
    if (element.type === TYPE.plural) {
      base[element.value] ??= 2;
      for (const count of [0, 1, 2, 21]) variants.push({ [element.value]: count });
    }
    if (element.type === TYPE.select) for (const key of Object.keys(element.options)) variants.push({ [element.value]: key === "other" ? "something-else" : key });
  });
  return variants.length === 0 ? [base] : variants.map((variant) => ({ ...base, ...variant }));
}

const text = (result: unknown): string => (Array.isArray(result) ? result.map(text).join("") : String(result));

const formatters = {
  getDateTimeFormat: (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) => new Intl.DateTimeFormat(...args),
  getNumberFormat: (...args: ConstructorParameters<typeof Intl.NumberFormat>) => new Intl.NumberFormat(...args),
  getPluralRules: (...args: ConstructorParameters<typeof Intl.PluralRules>) => new Intl.PluralRules(...args),
};

describe("the catalogs compiled for the Next.js app", () => {
  for (const [locale, catalog] of [["en", en], ["es", es]] as const) {
    it(`reads every ${locale} message as the reference ICU formatter does`, () => {
      const compiled = compileCatalog(catalog) as unknown as Record<string, unknown>;
      const messages = [...flattenCatalog(catalog)];
      expect(messages.length).toBeGreaterThan(300);
      let checked = 0;
      for (const [key, message] of messages) {
        const node = key.split(".").reduce<unknown>((at, part) => (at as Record<string, unknown>)[part], compiled);
        for (const values of valueSets(message)) {
          const expected = text(new IntlMessageFormat(message, locale).format(values));
          const actual = text(format(node as Parameters<typeof format>[0], locale, values, { formatters, timeZone: "UTC" }));
          expect(actual, `${locale}: ${key} with ${JSON.stringify(values)}`).toBe(expected);
          checked += 1;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(messages.length);
    });
  }

  it("hands React plain objects only (the compiler's plural branches have no prototype)", () => {
    const compiled = compileCatalog(en);
    const prototypes = new Set<unknown>();
    (function visit(value: unknown) {
      if (value === null || typeof value !== "object") return;
      prototypes.add(Object.getPrototypeOf(value));
      Object.values(value).forEach(visit);
    })(compiled);
    expect([...prototypes].every((p) => p === Object.prototype || p === Array.prototype)).toBe(true);
    expect(prototypes.has(Array.prototype)).toBe(true);
  });

  it("stay plain text outside Next.js, where the full ICU formatter reads them", () => {
    expect(PRECOMPILED_MESSAGES).toBe(false);
    expect(CATALOGS.en).toBe(en);
    expect(CATALOGS.es).toBe(es);
  });
});
