import { createHash, timingSafeEqual } from "node:crypto";
import { getEnv } from "@/lib/env";
import { Unauthorized } from "@/lib/errors";

/**
 * When EMAIL_WEBHOOK_TOKEN is configured, the request's `?token=` must equal it (401 otherwise).
 * Both sides are hashed first so the constant-time comparison does not leak the token's length.
 */
export function verifyEmailWebhookToken(url: string): void {
  const expected = getEnv().EMAIL_WEBHOOK_TOKEN;
  if (!expected) return;
  const given = new URL(url).searchParams.get("token");
  if (given === null) throw Unauthorized("Missing webhook token.");
  const a = createHash("sha256").update(given, "utf8").digest();
  const b = createHash("sha256").update(expected, "utf8").digest();
  if (!timingSafeEqual(a, b)) throw Unauthorized("Invalid webhook token.");
}
