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
