import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { getAuthSecret } from "@/lib/env";
import { BadRequest } from "@/lib/errors";

export type CursorValue = string | number;

const INVALID = "Invalid cursor. Pass the nextCursor of a previous page unchanged.";

/** Options of a list function that do not change which rows the list holds. */
const UNBOUND_OPTIONS = new Set(["principal", "limit", "cursor", "cap"]);

/**
 * What a cursor is bound to: the list's name and every option that selects its rows (filters, the
 * parent record's id), in a stable order. A cursor made for one list, or for the same list with other
 * filters, does not verify against another binding: a `/v1/documents` cursor given to
 * `/v1/signing/manager/signings`, or a cursor of `status=sent` reused with `status=draft`, is a 400.
 * The page size is not bound (a client may change it between pages).
 */
export function cursorBinding(list: string, options: object): string {
  const filters = Object.entries(options)
    .filter(([name, value]) => !UNBOUND_OPTIONS.has(name) && value !== undefined && value !== null && value !== "")
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([list, filters]);
}

/** 16 bytes of HMAC-SHA256 over the binding and the payload: forging one is out of reach, and the cursor stays short. */
function mac(binding: string, payload: string): string {
  return createHmac("sha256", getAuthSecret()).update(`cursor:${binding}\n${payload}`).digest().subarray(0, 16).toString("base64url");
}

/**
 * An opaque, tamper-proof cursor: the sort key of the last row of a page (and, for capped lists,
 * how many rows were served) as base64url JSON, then `.` and a MAC keyed by AUTH_SECRET over the
 * list's binding (`cursorBinding`) and that payload. A client cannot make one up, so it cannot reset
 * the admin read cap or skip into another key range, nor carry a cursor over to another list or filter.
 */
export function encodeCursor(values: CursorValue[], binding: string): string {
  const payload = Buffer.from(JSON.stringify(values)).toString("base64url");
  return `${payload}.${mac(binding, payload)}`;
}

/** Decodes a cursor made by `encodeCursor` for the same binding with the given shape; anything else is a `BadRequest`. */
export function decodeCursor<T extends CursorValue[]>(cursor: string, shape: z.ZodType<T>, binding: string): T {
  const [payload, given, extra] = cursor.split(".");
  if (!payload || !given || extra !== undefined) throw BadRequest(INVALID);
  const expected = Buffer.from(mac(binding, payload));
  const actual = Buffer.from(given);
  if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) throw BadRequest(INVALID);
  try {
    return shape.parse(JSON.parse(Buffer.from(payload, "base64url").toString("utf8")));
  } catch {
    throw BadRequest(INVALID);
  }
}

/** A cursor holding one key of the given shape, or `null` when there is no cursor. */
export function decodeKeyCursor<K extends CursorValue>(cursor: string | undefined, key: z.ZodType<K>, binding: string): K | null {
  return cursor ? decodeCursor(cursor, z.tuple([key]), binding)[0] : null;
}
