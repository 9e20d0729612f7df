import { encodeCursor, type CursorValue } from "./keyset-cursor";

/** One page of a keyset-paginated list: the rows (or domain objects) and the cursor of the next page. */
export type KeysetPage<Row> = { rows: Row[]; nextCursor: string | null };

/**
 * Given `limit + 1` rows fetched in keyset order, returns the page and the cursor for the next one,
 * bound to the list and its filters (`cursorBinding`).
 */
export function toKeysetPage<Row>(rows: Row[], limit: number, cursorOf: (row: Row) => CursorValue[], binding: string): KeysetPage<Row> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return { rows: pageRows, nextCursor: hasMore && last !== undefined ? encodeCursor(cursorOf(last), binding) : null };
}
