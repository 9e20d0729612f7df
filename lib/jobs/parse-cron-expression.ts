/** A parsed five-field cron expression, evaluated in UTC (as Inngest evaluates cron triggers). */
export type CronExpression = {
  source: string;
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  daysOfMonth: ReadonlySet<number>;
  months: ReadonlySet<number>;
  /** 0 = Sunday … 6 = Saturday (7 is read as Sunday). */
  daysOfWeek: ReadonlySet<number>;
  /** Classic cron: when both day fields are restricted, a day matches if either matches. */
  dayOfMonthRestricted: boolean;
  dayOfWeekRestricted: boolean;
};

const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
] as const;

/**
 * Parses `minute hour day-of-month month day-of-week`. Each field is a comma list of `*`, `n` or
 * `a-b`, each optionally followed by `/step` (`n/step` runs from `n` to the field's end). Names
 * (`MON`, `JAN`), `?`, `L`, `W`, `#` and six-field (seconds) forms are rejected rather than guessed.
 */
export function parseCronExpression(source: string): CronExpression {
  const parts = source.trim().split(/\s+/);
  if (parts.length !== 5) throw new Error(`Cron expression "${source}" must have 5 fields (minute hour day-of-month month day-of-week).`);
  const [minutes, hours, daysOfMonth, months, rawDaysOfWeek] = parts.map((part, i) => parseField(part, FIELDS[i]!, source)) as [
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
    Set<number>,
  ];
  const daysOfWeek = new Set([...rawDaysOfWeek].map((day) => day % 7));
  return {
    source,
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek,
    dayOfMonthRestricted: !parts[2]!.startsWith("*"),
    dayOfWeekRestricted: !parts[4]!.startsWith("*"),
  };
}

function parseField(part: string, field: (typeof FIELDS)[number], source: string): Set<number> {
  const values = new Set<number>();
  const fail = (): never => {
    throw new Error(`Cron expression "${source}": invalid ${field.name} "${part}" (allowed ${field.min}-${field.max}).`);
  };
  for (const item of part.split(",")) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
    if (!match) fail();
    const [, range, from, to, stepText] = match!;
    const step = stepText === undefined ? 1 : Number(stepText);
    let start: number = field.min;
    let end: number = field.max;
    if (range !== "*") {
      start = Number(from);
      end = to !== undefined ? Number(to) : stepText !== undefined ? field.max : start;
    }
    if (step < 1 || start < field.min || end > field.max || start > end) fail();
    for (let value = start; value <= end; value += step) values.add(value);
  }
  return values;
}
