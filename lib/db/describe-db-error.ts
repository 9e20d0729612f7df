export type DbErrorKind = "invalid_text" | "unavailable" | "other";

export type DbErrorDescription = {
  kind: DbErrorKind;
  /** SQLSTATE (e.g. `22021`) or the driver's connection code (e.g. `ECONNREFUSED`, `CONNECT_TIMEOUT`). */
  code: string;
  /** The driver's message with every quoted literal replaced, never the query or its parameters. */
  message: string;
};

/** Text the database refuses to store: NUL in text/jsonb (22P05, 22021), values of the wrong shape (22P02). */
const INVALID_TEXT = new Set(["22021", "22P05", "22P02", "22P04", "22025", "2200C", "2200D"]);
/** Connection loss, shutdown, statement timeout, exhausted resources: the request may succeed later. */
const UNAVAILABLE_SQLSTATE = /^(08|53|57P|57014|3D000|28P01|58)/;
const CONNECTION_CODES = new Set([
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "ECONNREFUSED",
  "ECONNRESET",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
]);

/**
 * Recognises a database error through the wrappers Drizzle puts around it (`DrizzleQueryError`, whose
 * message carries the SQL and its parameters) and describes it without the parameters, for the one
 * error mapper and the logs. Anything that is not a database error answers `undefined`.
 */
export function describeDbError(error: unknown): DbErrorDescription | undefined {
  let wrapped = false;
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && (current.name === "PostgresError" || "severity" in current)) {
      const kind = INVALID_TEXT.has(code) ? "invalid_text" : UNAVAILABLE_SQLSTATE.test(code) ? "unavailable" : "other";
      return { kind, code, message: redactLiterals(current.message) };
    }
    if (typeof code === "string" && CONNECTION_CODES.has(code)) return { kind: "unavailable", code, message: redactLiterals(current.message) };
    if (/PGlite is closed|database is closed/i.test(current.message)) return { kind: "unavailable", code: "CLOSED", message: "the database is closed" };
    if (current.name === "DrizzleQueryError") wrapped = true;
    current = current.cause;
  }
  return wrapped ? { kind: "other", code: "UNKNOWN", message: "a query failed" } : undefined;
}

/** `invalid input syntax for type uuid: "abc"` → `invalid input syntax for type uuid: "…"`. */
function redactLiterals(message: string): string {
  return message
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'…'")
    .replace(/\(([^()]*)\)=\(([^()]*)\)/g, "($1)=(…)")
    .slice(0, 300);
}
