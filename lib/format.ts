/**
 * How the browser product writes dates, times and lists of names: one place, so every page and every
 * client component says the same thing for the same moment. Times are shown in UTC and say so: the
 * server renders first and a client component hydrates the same text, whatever the viewer's time zone
 * (a formatter without an explicit zone would disagree with the server). Safe to import from client
 * components (no server-only imports).
 */

const TIME_ZONE = "UTC";

/** The locales pages print in: managers' pages in English, borrowers' pages in their language. */
export type FormatLocale = "en" | "es";
const TAGS: Record<FormatLocale, string> = { en: "en-US", es: "es-US" };

function formatsFor(tag: string) {
  return {
    /** "Mar 10, 2026" */
    date: new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeZone: TIME_ZONE }),
    /** "March 10, 2026" */
    longDate: new Intl.DateTimeFormat(tag, { dateStyle: "long", timeZone: TIME_ZONE }),
    /** "Mar 10, 2026, 12:00 PM" */
    dateTime: new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE }),
    /** "March 10, 2026 at 12:00 PM" */
    longDateTime: new Intl.DateTimeFormat(tag, { dateStyle: "long", timeStyle: "short", timeZone: TIME_ZONE }),
    /** "Mar 10, 12:00 PM" (a recent moment in a dense table) */
    shortDateTime: new Intl.DateTimeFormat(tag, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: TIME_ZONE }),
  };
}

const FORMATS: Record<FormatLocale, ReturnType<typeof formatsFor>> = { en: formatsFor(TAGS.en), es: formatsFor(TAGS.es) };

type Moment = Date | string;

const toDate = (value: Moment) => (typeof value === "string" ? new Date(value) : value);

/** A calendar day: "Mar 10, 2026" (`long`: "March 10, 2026"; `es`: "10 mar 2026"). */
export function formatDate(value: Moment, style: "medium" | "long" = "medium", locale: FormatLocale = "en"): string {
  const formats = FORMATS[locale];
  return (style === "long" ? formats.longDate : formats.date).format(toDate(value));
}

/** A moment, with its zone: "Mar 10, 2026, 12:00 PM UTC" (`long`: "March 10, 2026 at 12:00 PM UTC"). */
export function formatDateTime(value: Moment, style: "medium" | "long" = "medium", locale: FormatLocale = "en"): string {
  const formats = FORMATS[locale];
  return `${(style === "long" ? formats.longDateTime : formats.dateTime).format(toDate(value))} UTC`;
}

/** A recent moment without its year: "Mar 10, 12:00 PM UTC". */
export function formatShortDateTime(value: Moment, locale: FormatLocale = "en"): string {
  return `${FORMATS[locale].shortDateTime.format(toDate(value))} UTC`;
}

/** A number in the locale's digits and separators: "1,234.5" (`es`: "1,234.5" in US Spanish too). */
export function formatNumber(value: number, locale: FormatLocale = "en"): string {
  return new Intl.NumberFormat(TAGS[locale]).format(value);
}

const relative = new Intl.RelativeTimeFormat("en-US", { numeric: "auto" });
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["week", 7 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** "2 days ago", "in 3 hours", "just now", against `now` (the page's render time). */
export function relativeTime(value: Moment, now: Date): string {
  const diff = toDate(value).getTime() - now.getTime();
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return relative.format(Math.round(diff / ms), unit);
  }
  return "just now";
}

/** "A", "A and B", "A, B and C" (`es`: "A, B y C"). */
export function joinNames(names: string[], locale: FormatLocale = "en"): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} ${locale === "es" ? "y" : "and"} ${names.at(-1)}`;
}
