import { z } from "zod";
import { BadRequest } from "@/lib/errors";

export type CursorValue = string | number;

/** An opaque cursor: the sort key of the last row of a page, base64url-encoded JSON. */
export function encodeCursor(values: CursorValue[]): string {
  return Buffer.from(JSON.stringify(values)).toString("base64url");
}

/** Decodes a cursor made by `encodeCursor` with the given shape; anything else is a `BadRequest`. */
export function decodeCursor<T extends CursorValue[]>(cursor: string, shape: z.ZodType<T>): T {
  try {
    return shape.parse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
  } catch {
    throw BadRequest("Invalid cursor. Pass the nextCursor of a previous page unchanged.");
  }
}

/** A cursor holding one key of the given shape, or `null` when there is no cursor. */
export function decodeKeyCursor<K extends CursorValue>(cursor: string | undefined, key: z.ZodType<K>): K | null {
  return cursor ? decodeCursor(cursor, z.tuple([key]))[0] : null;
}
