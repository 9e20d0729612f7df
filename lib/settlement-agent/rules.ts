import { getEnv } from "@/lib/env";

/** An agent session ends after 2 hours without a request (scanning a stack of pages takes a while)… */
export const AGENT_SESSION_IDLE_MS = 2 * 60 * 60_000;
/** …and 12 hours after the link was opened, whatever happens (and never after the link's expiry). */
export const AGENT_SESSION_MAX_MS = 12 * 60 * 60_000;
/** A link lasts until 7 days after the appointment, and at least 7 days from when it is issued. */
export const AGENT_LINK_DAYS_AFTER_CLOSING = 7;

const DAY_MS = 86_400_000;

/** When a link issued `now` for an appointment at `closingAt` (if any) stops working. */
export function agentLinkExpiry(closingAt: Date | null, now: Date): Date {
  const fromNow = now.getTime() + AGENT_LINK_DAYS_AFTER_CLOSING * DAY_MS;
  const fromClosing = closingAt ? closingAt.getTime() + AGENT_LINK_DAYS_AFTER_CLOSING * DAY_MS : 0;
  return new Date(Math.max(fromNow, fromClosing));
}

/** The URL of an agent link: `{APP_URL}/agent/<token>`. */
export function agentLinkUrl(token: string): string {
  return `${getEnv().APP_URL.replace(/\/+$/, "")}/agent/${token}`;
}

/** The cookie of an agent session for one package: one cookie per package, `__Host-` on https. */
export function agentSessionCookieName(packageId: string, secure: boolean): string {
  return `${secure ? "__Host-" : ""}csk-agent-${packageId}`;
}
