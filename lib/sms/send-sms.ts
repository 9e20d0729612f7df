import { getEnv } from "@/lib/env";
import { Unavailable } from "@/lib/errors";

export const SMS_UNAVAILABLE_MESSAGE =
  "Text messages are not set up for this service. Ask the sender to choose another way for you to prove who you are.";

/** Whether text messages can be sent (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM set). */
export function isSmsConfigured(): boolean {
  const env = getEnv();
  return Boolean(env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN && env.TWILIO_FROM);
}

/**
 * Sends one text message through the provider adapter (`twilio-sms.ts`). 503 with a clear message
 * when SMS is not configured or the number is missing.
 */
export async function sendSms(message: { to: string; body: string }): Promise<void> {
  if (!isSmsConfigured()) throw Unavailable(SMS_UNAVAILABLE_MESSAGE);
  if (!/^\+[1-9]\d{6,14}$/.test(message.to)) throw Unavailable("This signer has no mobile number on file. Ask the sender to add one.");
  // Loaded on first use: the SDK is large and most deployments never send a text.
  const { sendTwilioSms } = await import("./twilio-sms");
  await sendTwilioSms(message);
}
