import { randomBytes } from "node:crypto";

/**
 * UUIDv7 (RFC 9562): 48-bit millisecond timestamp, version and variant bits, random rest.
 * Time-ordered ids keep B-tree inserts local and make keyset pagination by id follow creation order.
 */
export function uuidv7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}

/**
 * Whether `value` can be a serial id (a positive PostgreSQL `integer`). Ids that reach a domain
 * function from a form or a server action's bound argument are not typed at run time: anything
 * else is "not found" before it reaches a query (where it would be a database error).
 */
export function isIntId(value: unknown): value is number {
  return typeof value === "number" && Number.isSafeInteger(value) && value > 0 && value <= 2_147_483_647;
}
