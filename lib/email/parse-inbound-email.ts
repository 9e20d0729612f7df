import { createHash } from "node:crypto";
import { BadRequest } from "@/lib/errors";
import { parseAddressList } from "./parse-address-list";

export type InboundEmailMessage = {
  /** The `to` field as sent (may list several addresses, with display names). */
  to: string;
  /** The addresses in `to` (never text from a display name), lower-cased. */
  recipients: string[];
  from: string | null;
  subject: string;
  text: string;
  /** The sender's Message-ID when the provider passes it on, else a hash of the body. */
  messageId: string;
  /**
   * The key a redelivery is recognised by: the message id together with its recipients, so another
   * tenant's mail that reuses (or forges) a Message-ID is never taken for a duplicate. Per recipient
   * organization, mail is deduplicated again when it is filed.
   */
  deliveryKey: string;
};

export type ParseInboundEmailOptions = { body: Uint8Array; contentType: string | null };

/**
 * Reads the inbound email webhook body: `multipart/form-data` (SendGrid Inbound Parse, Mailgun
 * routes; `application/x-www-form-urlencoded` works the same way) or `application/json`. Field names
 * of the common providers are accepted (`to`/`recipient`/`To`, `text`/`body-plain`/`TextBody`, …).
 * Attachments are not kept. Missing `to`, unreadable bodies and other content types are 400.
 */
export async function parseInboundEmail(options: ParseInboundEmailOptions): Promise<InboundEmailMessage> {
  const type = (options.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  let fields: Record<string, unknown>;
  if (type === "application/json") {
    let json: unknown;
    try {
      json = JSON.parse(Buffer.from(options.body).toString("utf8"));
    } catch {
      throw BadRequest("Request body must be valid JSON.");
    }
    if (json === null || typeof json !== "object" || Array.isArray(json)) throw BadRequest("Request body must be a JSON object.");
    fields = json as Record<string, unknown>;
  } else if (type === "multipart/form-data" || type === "application/x-www-form-urlencoded") {
    let form: FormData;
    try {
      form = await new Response(options.body as BodyInit, { headers: { "content-type": options.contentType! } }).formData();
    } catch {
      throw BadRequest("Request body is not valid form data.");
    }
    fields = {};
    for (const [name, value] of form.entries()) if (typeof value === "string" && !(name in fields)) fields[name] = value;
  } else {
    throw BadRequest("Content-Type must be multipart/form-data or application/json.");
  }

  const to = pick(fields, ["to", "To", "recipient", "Recipient"]);
  if (!to) throw BadRequest("Inbound email has no to address.");
  const recipients = parseAddressList(to);
  if (recipients.length === 0) throw BadRequest("Inbound email has no valid to address.");
  const messageId =
    pick(fields, ["message_id", "messageId", "MessageID", "Message-Id", "message-id"]) ??
    `sha256:${createHash("sha256").update(options.body).digest("hex")}`;
  return {
    to,
    recipients,
    from: pick(fields, ["from", "From", "sender", "Sender"]) ?? null,
    subject: pick(fields, ["subject", "Subject"]) ?? "",
    text: pick(fields, ["text", "TextBody", "body-plain", "plain"]) ?? "",
    messageId: messageId.slice(0, 500),
    deliveryKey: `${messageId.slice(0, 500)} to:${createHash("sha256").update([...recipients].sort().join(",")).digest("hex").slice(0, 32)}`,
  };
}

function pick(fields: Record<string, unknown>, names: string[]): string | undefined {
  for (const name of names) {
    const value = fields[name];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
    if (Array.isArray(value) && value.every((v) => typeof v === "string") && value.length > 0) return value.join(", ");
  }
  return undefined;
}
