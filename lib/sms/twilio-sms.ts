import twilio from "twilio";
import { getEnv } from "@/lib/env";
import { Unavailable } from "@/lib/errors";
import { log } from "@/lib/log";

/** Sends through Twilio's Messages API with the `twilio` SDK. Body and number are never logged. */
export async function sendTwilioSms(message: { to: string; body: string }): Promise<void> {
  const env = getEnv();
  const base = env.TWILIO_API_BASE_URL?.replace(/\/+$/, "");
  const client = twilio(env.TWILIO_ACCOUNT_SID, env.TWILIO_AUTH_TOKEN, base ? { httpClient: rebasedClient(base) } : {});
  try {
    await client.messages.create({ to: message.to, from: env.TWILIO_FROM!, body: message.body });
  } catch (error) {
    log.warn("sms send failed", { status: (error as { status?: number }).status, code: (error as { code?: number }).code });
    throw Unavailable("The text message could not be sent. Try again in a minute.");
  }
}

/** The SDK's own request client, sending to `base` instead of https://*.twilio.com (the tests' fake server). */
function rebasedClient(base: string): InstanceType<typeof twilio.RequestClient> {
  const client = new twilio.RequestClient();
  const request = client.request.bind(client);
  client.request = (opts) => request({ ...opts, uri: opts.uri.replace(/^https:\/\/[^/]+/, base) });
  return client;
}
