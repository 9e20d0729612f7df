/**
 * PostgreSQL cannot store U+0000 in `text` or `jsonb`. A verified webhook is a provider's statement
 * and is acknowledged whatever it says, so its strings (keys and values, at any depth) get U+FFFD in
 * place of U+0000 before they are stored; refusing it would only make the provider retry forever.
 */
export function neutraliseNul<T>(value: T): T {
  return neutralise(value, 0) as T;
}

function neutralise(value: unknown, depth: number): unknown {
  if (typeof value === "string") return value.includes("\u0000") ? value.replaceAll("\u0000", "\uFFFD") : value;
  if (value === null || typeof value !== "object" || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => neutralise(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [neutralise(k, depth + 1) as string, neutralise(v, depth + 1)]));
}
