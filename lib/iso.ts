/** A timestamp as ISO 8601 UTC (every timestamp the API returns); `null` stays `null`. */
export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
