const format = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "UTC" });

/**
 * The text a `date_signed` field gets: the signing day in UTC as MM/DD/YYYY. The signer's page shows
 * this same function's output, so what is shown is what is stamped.
 */
export function formatSignedDate(at: Date): string {
  return format.format(at);
}
