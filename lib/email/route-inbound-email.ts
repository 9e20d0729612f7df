import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { inboundEmails, organizations, outreachMessages, type InboundEvent } from "@/db/schema";
import { processInboundEvent, type InboundEventOutcome } from "@/lib/inbound-events/process-inbound-event";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import type { InboundEmailMessage } from "./parse-inbound-email";

export type RouteInboundEmailOptions = { inboundEventId: string };

/**
 * Files a stored inbound email by its recipients on INBOUND_EMAIL_DOMAIN, first match wins:
 * 1. `reply+<token>@domain` → the outreach message with that reply token: the mail is threaded to it
 *    (routing `reply`) and the message is marked `replied` (`replied_at` keeps the first reply);
 * 2. `<organization slug>@domain` → that organization's inbox (routing `inbox`);
 * 3. otherwise kept as `unrouted` for an administrator to look at.
 * Recipients are addresses only (`parseInboundEmail`), never display names. The routing is stored on
 * the `inbound_emails` row; a Message-ID already filed for the same organization is not filed again
 * (another organization's mail with that id is).
 */
export async function routeInboundEmail(db: Db, options: RouteInboundEmailOptions): Promise<"processed" | "ignored" | "failed" | "already-done"> {
  return processInboundEvent(db, { inboundEventId: options.inboundEventId, source: "email", apply: fileEmail });
}

async function fileEmail(tx: Db, stored: InboundEvent): Promise<InboundEventOutcome> {
  const mail = stored.payload as InboundEmailMessage;
  const domain = `@${getEnv().INBOUND_EMAIL_DOMAIN.toLowerCase()}`;
  const locals = mail.recipients.filter((a) => a.endsWith(domain)).map((a) => a.slice(0, -domain.length));
  let routing: "reply" | "inbox" | "unrouted" = "unrouted";
  let organizationId: number | null = null;
  let outreachMessageId: string | null = null;

  for (const local of locals) {
    const token = /^reply\+(.+)$/.exec(local)?.[1];
    if (!token) continue;
    const [message] = await tx
      .update(outreachMessages)
      .set({ status: "replied", repliedAt: sql`coalesce(${outreachMessages.repliedAt}, now())` })
      .where(eq(outreachMessages.replyToken, token))
      .returning({ id: outreachMessages.id, organizationId: outreachMessages.organizationId });
    if (message) {
      routing = "reply";
      organizationId = message.organizationId;
      outreachMessageId = message.id;
      break;
    }
  }
  if (routing === "unrouted") {
    for (const local of locals) {
      const [org] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, local));
      if (org) {
        routing = "inbox";
        organizationId = org.id;
        break;
      }
    }
  }

  const [filed] = await tx
    .insert(inboundEmails)
    .values({
      inboundEventId: stored.id,
      organizationId,
      outreachMessageId,
      messageId: mail.messageId,
      routing,
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
    })
    // Either this event was filed already, or this organization has this Message-ID already.
    .onConflictDoNothing()
    .returning({ id: inboundEmails.id });
  log.info(filed ? "inbound email routed" : "inbound email duplicate for its organization", { inboundEventId: stored.id, routing, organizationId });
  return { status: "processed", organizationId };
}
