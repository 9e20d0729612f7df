import type Twilio from "twilio";
import { getEnv } from "@/lib/env";
import { Unavailable } from "@/lib/errors";
import { log } from "@/lib/log";

export type TwilioMessage = { to: string; body: string; statusCallback?: string };
export type TwilioSent = { sid: string; status: string };

/** Twilio's codes for a text that can never go to that number, whatever retrying does. */
const PERMANENT_ERROR_CODES = new Set([21211, 21408, 21610, 21612, 21614, 21606]);
/** "Attempt to send to unsubscribed recipient": the number replied STOP to our sender. */
export const TWILIO_UNSUBSCRIBED = 21610;

/** Twilio refused the text: `code` is Twilio's error code, `permanent` when retrying cannot help. */
export class SmsRefused extends Error {
  constructor(
    readonly code: number | undefined,
    readonly permanent: boolean,
  ) {
    super(`Twilio refused the text (${code ?? "no code"})`);
    this.name = "SmsRefused";
  }
}

/**
 * Creates one message through Twilio's Messages API with the `twilio` SDK; with `statusCallback`
 * Twilio posts the delivery status there. Body and number are never logged. Throws `SmsRefused`.
 */
export async function createTwilioMessage(message: TwilioMessage): Promise<TwilioSent> {
  const env = getEnv();
  const base = env.TWILIO_API_BASE_URL?.replace(/\/+$/, "");
  // Imported on first use: the SDK is large, and most processes (every cold start) never send a text.
  const { default: twilio } = await import("twilio");
  const client = twilio(env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, base ? { httpClient: rebasedClient(twilio, base) } : {});
  try {
    const sent = await client.messages.create({
      to: message.to,
      from: env.TWILIO_FROM!,
      body: message.body,
      ...(message.statusCallback ? { statusCallback: message.statusCallback } : {}),
    });
    return { sid: sent.sid, status: sent.status };
  } catch (error) {
    const status = (error as { status?: number }).status;
    const code = (error as { code?: number }).code;
    log.warn("sms send failed", { status, code });
    // 4xx with a known number error cannot succeed later; 401, 429, 5xx and network errors may.
    throw new SmsRefused(code, typeof code === "number" && PERMANENT_ERROR_CODES.has(code));
  }
}

/** Sends through Twilio's Messages API; any refusal is a 503 asking to try again (the `sms_code` path). */
export async function sendTwilioSms(message: { to: string; body: string }): Promise<TwilioSent> {
  try {
    return await createTwilioMessage(message);
  } catch {
    throw Unavailable("The text message could not be sent. Try again in a minute.");
  }
}

/** The SDK's own request client, sending to `base` instead of https://*.twilio.com (the tests' fake server). */
function rebasedClient(twilio: typeof Twilio, base: string): InstanceType<typeof Twilio.RequestClient> {
  const client = new twilio.RequestClient();
  const request = client.request.bind(client);
  client.request = (opts) => request({ ...opts, uri: opts.uri.replace(/^https:\/\/[^/]+/, base) });
  return client;
}
