import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { getAuthSecret } from "@/lib/env";
import { BadRequest } from "@/lib/errors";

export type CursorValue = string | number;

const INVALID = "Invalid cursor. Pass the nextCursor of a previous page unchanged.";

/** 16 bytes of HMAC-SHA256: forging one is out of reach, and the cursor stays short. */
function mac(payload: string): string {
  return createHmac("sha256", getAuthSecret()).update(`cursor:${payload}`).digest().subarray(0, 16).toString("base64url");
}

/**
 * An opaque, tamper-proof cursor: the sort key of the last row of a page (and, for capped lists,
 * how many rows were served) as base64url JSON, then `.` and a MAC keyed by AUTH_SECRET. A client
 * cannot make one up, so it cannot reset the admin read cap or skip into another key range.
 */
export function encodeCursor(values: CursorValue[]): string {
  const payload = Buffer.from(JSON.stringify(values)).toString("base64url");
  return `${payload}.${mac(payload)}`;
}

/** Decodes a cursor made by `encodeCursor` with the given shape; anything else is a `BadRequest`. */
export function decodeCursor<T extends CursorValue[]>(cursor: string, shape: z.ZodType<T>): T {
  const [payload, given, extra] = cursor.split(".");
  if (!payload || !given || extra !== undefined) throw BadRequest(INVALID);
  const expected = Buffer.from(mac(payload));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw BadRequest(INVALID);
  try {
    return shape.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
  } catch {
    throw BadRequest(INVALID);
  }
}

/** A cursor holding one key of the given shape, or `null` when there is no cursor. */
export function decodeKeyCursor<K extends CursorValue>(cursor: string | undefined, key: z.ZodType<K>): K | null {
  return cursor ? decodeCursor(cursor, z.tuple([key]))[0] : null;
}
