/**
 * The JSON of a list page (`{ data, nextCursor[, cap] }` plus any extra fields the domain page
 * carries): domain list functions return rows, the route serializes each one here.
 */
export function serializePage<P extends { rows: unknown[] }, Item>(
  page: P,
  serialize: (row: P["rows"][number]) => Item,
): { data: Item[] } & Omit<P, "rows"> {
  const { rows, ...rest } = page;
  return { data: rows.map((row) => serialize(row)), ...rest };
}
