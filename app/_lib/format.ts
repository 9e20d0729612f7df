/**
 * How the browser product writes dates, times and lists of names: one place, so every page and every
 * client component says the same thing for the same moment. Times are shown in UTC and say so: the
 * server renders first and a client component hydrates the same text, whatever the viewer's time zone
 * (a formatter without an explicit zone would disagree with the server). Safe to import from client
 * components (no server-only imports).
 */

const TIME_ZONE = "UTC";

const formats = {
  /** "Mar 10, 2026" */
  date: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: TIME_ZONE }),
  /** "March 10, 2026" */
  longDate: new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: TIME_ZONE }),
  /** "Mar 10, 2026, 12:00 PM" */
  dateTime: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: TIME_ZONE }),
  /** "March 10, 2026 at 12:00 PM" */
  longDateTime: new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeStyle: "short", timeZone: TIME_ZONE }),
  /** "Mar 10, 12:00 PM" (a recent moment in a dense table) */
  shortDateTime: new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: TIME_ZONE }),
};

type Moment = Date | string;

const toDate = (value: Moment) => (typeof value === "string" ? new Date(value) : value);

/** A calendar day: "Mar 10, 2026" (`long`: "March 10, 2026"). */
export function formatDate(value: Moment, style: "medium" | "long" = "medium"): string {
  return (style === "long" ? formats.longDate : formats.date).format(toDate(value));
}

/** A moment, with its zone: "Mar 10, 2026, 12:00 PM UTC" (`long`: "March 10, 2026 at 12:00 PM UTC"). */
export function formatDateTime(value: Moment, style: "medium" | "long" = "medium"): string {
  return `${(style === "long" ? formats.longDateTime : formats.dateTime).format(toDate(value))} UTC`;
}

/** A recent moment without its year: "Mar 10, 12:00 PM UTC". */
export function formatShortDateTime(value: Moment): string {
  return `${formats.shortDateTime.format(toDate(value))} UTC`;
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

/** "A", "A and B", "A, B and C". */
export function joinNames(names: string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
