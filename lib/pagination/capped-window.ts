import { z } from "zod";
import { cursorBinding, decodeCursor, encodeCursor } from "./keyset-cursor";
import type { KeysetPage } from "./keyset-page";

/** A keyset page; `cap` is present when the admin read cap (ADMIN_READ_CAP) bounds the whole list. */
export type CappedPage<Row> = KeysetPage<Row> & { cap?: number };

type Key = string | number;

export type KeysetWindow<K extends Key> = { after: K | null; take: number; served: number; binding: string };

/**
 * A keyset window over a list that may be capped: the cursor carries the last key and how many rows
 * earlier pages served, so a capped reader (admin) stops after `cap` rows however it pages. `list` names
 * the list; with the options' filters it binds the cursor (`cursorBinding`).
 */
export function openWindow<K extends Key>(
  list: string,
  options: { limit: number; cursor?: string; cap: number | null },
  key: z.ZodType<K>,
): KeysetWindow<K> {
  const binding = cursorBinding(list, options);
  const [after, served] = options.cursor ? decodeCursor(options.cursor, z.tuple([key, z.number().int().min(0)]), binding) : [null, 0];
  const remaining = options.cap === null ? Number.POSITIVE_INFINITY : Math.max(0, options.cap - served);
  return { after, served, binding, take: Math.min(options.limit, remaining) };
}

/** Turns `take + 1` fetched rows into a page, with the next cursor only while the cap allows more. */
export function closeWindow<Row>(
  rows: Row[],
  window: { take: number; served: number; binding: string },
  cap: number | null,
  keyOf: (row: Row) => Key,
): CappedPage<Row> {
  const pageRows = rows.slice(0, window.take);
  const served = window.served + pageRows.length;
  const more = rows.length > window.take && (cap === null || served < cap);
  const last = pageRows[pageRows.length - 1];
  return {
    rows: pageRows,
    nextCursor: more && last !== undefined ? encodeCursor([keyOf(last), served], window.binding) : null,
    ...(cap === null ? {} : { cap }),
  };
}
