/** A place's id from the URL: a positive 32-bit integer, or null (then the page is not found). */
export function placeId(raw: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : null;
}
