import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import twilio from "twilio";

/**
 * A fake of the one Twilio REST endpoint the service uses, for the real `twilio` SDK (point
 * TWILIO_API_BASE_URL at `url`): `POST /2010-04-01/Accounts/{AccountSid}/Messages.json` with HTTP
 * basic auth (account SID and auth token) and a form body (`To`, `From`, `Body`). It answers 201 with
 * a message resource shaped like Twilio's and records what was sent in `messages`. Wrong credentials
 * answer 401, a missing field 400, both with Twilio's error shape `{ code, message, more_info, status }`.
 * A number in `unsubscribed` is refused as Twilio refuses a number that replied STOP (400, code 21610).
 * `webhook(url, params)` builds the signed POST Twilio would make to a status callback or reply webhook.
 * Listens on 127.0.0.1 only and never ships in production code paths.
 */
export type FakeTwilio = {
  url: string;
  accountSid: string;
  authToken: string;
  messages: { sid: string; to: string; from: string; body: string; statusCallback: string | null }[];
  /** Numbers that "replied STOP" at Twilio: sending to them fails with 21610. */
  unsubscribed: Set<string>;
  /** A POST as Twilio signs it (X-Twilio-Signature over the URL and the form parameters, under the auth token). */
  webhook: (url: string, params: Record<string, string>, options?: { authToken?: string }) => Request;
  close: () => Promise<void>;
};

export async function startFakeTwilio(options: { accountSid?: string; authToken?: string } = {}): Promise<FakeTwilio> {
  const accountSid = options.accountSid ?? `AC${"0".repeat(31)}1`;
  const authToken = options.authToken ?? "fake-twilio-auth-token";
  const messages: FakeTwilio["messages"] = [];
  const unsubscribed = new Set<string>();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, code: number, message: string) =>
    send(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(path);
    if (req.method !== "POST" || !match) return fail(res, 404, 20404, "The requested resource was not found");
    const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
    if (req.headers.authorization !== expected || match[1] !== accountSid) return fail(res, 401, 20003, "Authentication Error - invalid username");
    const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
    const to = form.get("To");
    const from = form.get("From");
    const body = form.get("Body");
    if (!to) return fail(res, 400, 21604, "A 'To' phone number is required.");
    if (!from) return fail(res, 400, 21603, "A 'From' phone number is required.");
    if (!body) return fail(res, 400, 21602, "Message body is required.");
    if (unsubscribed.has(to)) return fail(res, 400, 21610, "Attempt to send to unsubscribed recipient");
    const sid = `SM${randomUUID().replace(/-/g, "")}`;
    messages.push({ sid, to, from, body, statusCallback: form.get("StatusCallback") });
    const now = new Date().toUTCString();
    send(res, 201, {
      account_sid: accountSid,
      api_version: "2010-04-01",
      body,
      date_created: now,
      date_sent: null,
      date_updated: now,
      direction: "outbound-api",
      error_code: null,
      error_message: null,
      from,
      messaging_service_sid: null,
      num_media: "0",
      num_segments: "1",
      price: null,
      price_unit: "USD",
      sid,
      status: "queued",
      subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
      to,
      uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => fail(res, 500, 20500, "Internal Server Error"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    accountSid,
    authToken,
    messages,
    unsubscribed,
    webhook: (url, params, options = {}) =>
      new Request(url, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-twilio-signature": twilio.getExpectedTwilioSignature(options.authToken ?? authToken, url, params),
        },
        body: new URLSearchParams(params).toString(),
      }),
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
