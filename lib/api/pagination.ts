import { z } from "@hono/zod-openapi";
import { BadRequest } from "@/lib/errors";
import { SafeString } from "./schemas/common";

/** `?limit=&cursor=` for every list (ARCHITECTURE §4). */
export const PaginationQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25).openapi({ example: 25 }),
  cursor: SafeString.max(512).optional().openapi({ description: "The `nextCursor` of the previous page" }),
});

export type Page<T> = { data: T[]; nextCursor: string | null };

export const pageSchema = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), nextCursor: z.string().nullable() }).openapi(name);

type CursorValue = string | number;

/** An opaque cursor: the sort key of the last row of a page, base64url-encoded JSON. */
export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

/** Decodes a cursor made by `encodeCursor` with the given shape; anything else is a 400. */
export function decodeCursor<T extends CursorValue[]>(cursor: string, shape: z.ZodType<T>): T {
  try {
    return shape.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw BadRequest("Invalid cursor. Pass the nextCursor of a previous page unchanged.");
  }
}

/**
 * Given `limit + 1` rows fetched in keyset order, returns the page and the cursor for the next one.
 */
export function toPage<Row, Item>(rows: Row[], limit: number, cursorOf: (row: Row) => CursorValue[], serialize: (row: Row) => Item): Page<Item> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return { data: pageRows.map(serialize), nextCursor: hasMore && last !== undefined ? encodeCursor(cursorOf(last)) : null };
}
