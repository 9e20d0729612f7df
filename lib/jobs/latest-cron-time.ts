import type { CronExpression } from "./parse-cron-expression";

const MINUTE = 60_000;
/** Enough to find any date the calendar allows (29 February recurs within 8 years). */
const SEARCH_YEARS = 8;

/**
 * The latest instant at or before `at` (to the minute, UTC) that `cron` fires, or undefined when it
 * never fires in the preceding eight years (`0 0 30 2 *`). Skips whole months, days and hours that
 * cannot match, so a yearly schedule costs a few hundred steps, not half a million minutes.
 */
export function latestCronTime(cron: CronExpression, at: Date): Date | undefined {
  const t = new Date(Math.floor(at.getTime() / MINUTE) * MINUTE);
  const limit = Date.UTC(t.getUTCFullYear() - SEARCH_YEARS, 0, 1);
  while (t.getTime() >= limit) {
    if (!cron.months.has(t.getUTCMonth() + 1)) {
      t.setUTCDate(1); // last minute of the previous month
      t.setUTCHours(0, -1, 0, 0);
    } else if (!dayMatches(cron, t)) {
      t.setUTCHours(0, -1, 0, 0); // last minute of the previous day
    } else if (!cron.hours.has(t.getUTCHours())) {
      t.setUTCMinutes(-1, 0, 0); // last minute of the previous hour
    } else if (!cron.minutes.has(t.getUTCMinutes())) {
      t.setTime(t.getTime() - MINUTE);
    } else {
      return t;
    }
  }
  return undefined;
}

function dayMatches(cron: CronExpression, t: Date): boolean {
  const byMonthDay = cron.daysOfMonth.has(t.getUTCDate());
  const byWeekDay = cron.daysOfWeek.has(t.getUTCDay());
  if (cron.dayOfMonthRestricted && cron.dayOfWeekRestricted) return byMonthDay || byWeekDay;
  return byMonthDay && byWeekDay;
}
