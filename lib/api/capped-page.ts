import { z } from "@hono/zod-openapi";
import { decodeCursor, encodeCursor } from "./pagination";

/** A keyset page; `cap` is present when the admin read cap (ADMIN_READ_CAP) bounds the whole list. */
export type CappedPage<T> = { data: T[]; nextCursor: string | null; cap?: number };

type Key = string | number;

/**
 * A keyset window over a list that may be capped: the cursor carries the last key and how many rows
 * earlier pages served, so a capped reader (admin) stops after `cap` rows however it pages.
 */
export function openWindow<K extends Key>(
  options: { limit: number; cursor?: string; cap: number | null },
  key: z.ZodType<K>,
): { after: K | null; take: number; served: number } {
  const [after, served] = options.cursor
    ? decodeCursor(options.cursor, z.tuple([key, z.number().int().min(0)]))
    : [null, 0];
  const remaining = options.cap === null ? Number.POSITIVE_INFINITY : Math.max(0, options.cap - served);
  return { after, served, take: Math.min(options.limit, remaining) };
}

/** Turns `take + 1` fetched rows into a page, with the next cursor only while the cap allows more. */
export function closeWindow<Row, Item>(
  rows: Row[],
  window: { take: number; served: number },
  cap: number | null,
  keyOf: (row: Row) => Key,
  serialize: (row: Row) => Item,
): CappedPage<Item> {
  const pageRows = rows.slice(0, window.take);
  const served = window.served + pageRows.length;
  const more = rows.length > window.take && (cap === null || served < cap);
  const last = pageRows[pageRows.length - 1];
  return {
    data: pageRows.map(serialize),
    nextCursor: more && last !== undefined ? encodeCursor([keyOf(last), served]) : null,
    ...(cap === null ? {} : { cap }),
  };
}
