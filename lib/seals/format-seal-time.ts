/** One unambiguous time format for everything sealed: `2026-11-24 04:12:09 UTC`. */
export function formatSealTime(date: Date): string {
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}
