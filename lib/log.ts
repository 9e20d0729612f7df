import { getEnv } from "@/lib/env";
import { errorDetails } from "@/lib/errors";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

const SECRET_KEYS = /authorization|token|secret|password|api[-_]?key|cookie/i;

/** Credentials recognisable by shape wherever they appear in a string: JWTs, bearer values, reply tokens in addresses. */
const SECRET_VALUES: [RegExp, string][] = [
  [/eyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]*/g, "[redacted-jwt]"],
  [/\b(Bearer|Basic)\s+[^\s"',;]+/gi, "$1 [redacted]"],
  [/\breply\+[^@\s"'>]+@/gi, "reply+[redacted]@"],
  // A signer's access link (`/access/<token>`): the token opens their package.
  [/\/access\/[A-Za-z0-9_-]{20,}/g, "/access/[redacted]"],
  // A settlement agent's link (`/agent/<token>`): the token opens the package's closing.
  [/\/agent\/[A-Za-z0-9_-]{20,}/g, "/agent/[redacted]"],
  // An embedded or in-person signing URL (`/embed/<token>`, `/in-person/<token>`): the token opens a signer's session.
  [/\/(embed|in-person)\/[A-Za-z0-9_-]{20,}/g, "/$1/[redacted]"],
];

function scrub(text: string): string {
  return SECRET_VALUES.reduce((s, [pattern, replacement]) => s.replace(pattern, replacement), text);
}

/**
 * Drops values whose key looks secret and scrubs credential-shaped strings, so a careless log call
 * cannot leak a credential; errors are reduced by `errorDetails` (database errors to code and a
 * message without parameters).
 */
function redact(value: unknown, depth = 0): unknown {
  if (value instanceof Error) return redact(errorDetails(value), depth + 1);
  if (typeof value === "string") return scrub(value);
  if (value === null || typeof value !== "object" || depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEYS.test(k) ? "[redacted]" : redact(v, depth + 1)]),
  );
}

function write(level: Level, msg: string, fields?: Record<string, unknown>): void {
  if (LEVELS[level] < LEVELS[getEnv().LOG_LEVEL]) return;
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg: scrub(msg), ...(redact(fields ?? {}) as object) });
  if (level === "error" || level === "warn") console.error(line);
  else console.log(line);
}

export const log = {
  debug: (msg: string, fields?: Record<string, unknown>) => write("debug", msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write("info", msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write("warn", msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write("error", msg, fields),
};
