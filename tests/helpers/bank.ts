import { randomBytes } from "node:crypto";
import { encode } from "next-auth/jwt";
import { getAuthSecret } from "@/lib/env";
import type { FakePlaid } from "@/tests/fakes/plaid/server";

export const BANK_KEY = randomBytes(32).toString("base64");

export function bankEnv(fake: FakePlaid, overrides: Record<string, string | undefined> = {}) {
  return {
    PLAID_CLIENT_ID: fake.clientId,
    PLAID_SECRET: fake.secret,
    PLAID_BASE_URL: fake.url,
    BANK_TOKEN_ENCRYPTION_KEY: BANK_KEY,
    ...overrides,
  };
}

/** A real next-auth session cookie (the JWE the sign-in sets) for the user. */
export async function sessionCookieFor(user: { id: string; email: string; name: string }): Promise<string> {
  const value = await encode({ token: { sub: user.id, email: user.email, name: user.name }, secret: getAuthSecret() });
  return `next-auth.session-token=${value}`;
}

export function bankRequest(
  path: string,
  options: { method?: string; cookie?: string; origin?: string | null; body?: unknown } = {},
): Request {
  const method = options.method ?? "POST";
  const headers = new Headers();
  if (options.cookie) headers.set("cookie", options.cookie);
  const origin = options.origin === undefined ? "http://localhost:3000" : options.origin;
  if (origin !== null && method !== "GET") headers.set("origin", origin);
  if (options.body !== undefined) headers.set("content-type", "application/json");
  return new Request(`http://localhost:3000${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : typeof options.body === "string" ? options.body : JSON.stringify(options.body),
  });
}
