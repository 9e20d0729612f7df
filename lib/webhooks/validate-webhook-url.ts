import { isIP } from "node:net";
import { getEnv, isLocalAddress, type Env } from "@/lib/env";
import { BadRequest } from "@/lib/errors";
import { refusedAddressKind, urlHost } from "./webhook-address";

export const MAX_WEBHOOK_URL_LENGTH = 2_000;

/**
 * Whether webhooks may go to loopback: WEBHOOKS_ALLOW_LOOPBACK outside production, or in production
 * on a local APP_URL (one machine: a trial, the browser tests), never on a public deployment.
 */
export function webhookLoopbackAllowed(env: Env = getEnv()): boolean {
  return env.WEBHOOKS_ALLOW_LOOPBACK && (env.NODE_ENV !== "production" || isLocalAddress(env.APP_URL));
}

/**
 * The URL an endpoint may be saved with: https (http too outside production, and to loopback where
 * loopback is allowed), no credentials, and
 * no host that is a refused address by itself (an IP literal, `localhost`). A hostname is resolved
 * and checked again at every delivery, since what it resolves to can change.
 */
export function validateWebhookUrl(raw: string, env: Env = getEnv()): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw BadRequest("url: is not a valid absolute URL.");
  }
  const production = env.NODE_ENV === "production";
  const host = urlHost(url);
  const allowLoopback = webhookLoopbackAllowed(env);
  const named = host === "localhost" || host.endsWith(".localhost") ? "127.0.0.1" : isIP(host) ? host : null;
  const plainHttpAllowed = !production || (allowLoopback && named !== null && refusedAddressKind(named, { allowLoopback: false }) === "loopback");
  if (url.protocol !== "https:" && !(url.protocol === "http:" && plainHttpAllowed)) {
    throw BadRequest(production ? "url: must be https." : "url: must be https (or http outside production).");
  }
  if (url.username || url.password) throw BadRequest("url: must not carry a user name or password.");
  if (named) {
    const kind = refusedAddressKind(named, { allowLoopback });
    if (kind) throw BadRequest(`url: points to a ${kind} address; webhooks go to public addresses only.`);
  }
  url.hash = "";
  return url.toString();
}
