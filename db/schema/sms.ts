import { index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { organizations } from "./organizations";
import { packageSigners } from "./package-signers";
import { signingPackages } from "./signing-packages";

/** Why a text was written: the invitation, "your turn" (a later routing group), a reminder. */
export const SMS_KINDS = ["invitation", "your_turn", "reminder"] as const;
export type SmsKind = (typeof SMS_KINDS)[number];

/**
 * Our side of a delivery: `queued` (the job has not sent it yet), `sent` (the provider took it),
 * `delivered` / `undelivered` / `failed` (the provider's status callback), `skipped` (not sent:
 * `skipReason` says why — the borrower stopped texts, consent withdrawn, SMS not configured).
 */
export const SMS_STATUSES = ["queued", "sent", "delivered", "undelivered", "failed", "skipped"] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];

/**
 * The SMS outbox: one row per text to a signer, written in the same transaction as the state change
 * that causes it (with the `send-signer-sms` job that delivers it). The body is not kept here: it
 * carries the signer's access link, which lives only in the job's payload, as an email's does.
 */
export const smsMessages = pgTable(
  "sms_messages",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    packageId: uuid("package_id").references(() => signingPackages.id, { onDelete: "cascade" }),
    signerId: uuid("signer_id").references(() => packageSigners.id, { onDelete: "cascade" }),
    /** E.164 number the text goes to. */
    to: text("to").notNull(),
    kind: text("kind", { enum: SMS_KINDS }).notNull(),
    status: text("status", { enum: SMS_STATUSES }).notNull().default("queued"),
    skipReason: text("skip_reason", { enum: ["opted_out", "no_consent", "not_configured"] }),
    /** The provider's message id (Twilio `SM…`), once sent. */
    providerSid: text("provider_sid"),
    /** The provider's last status word (queued, sent, delivered, undelivered, failed…). */
    providerStatus: text("provider_status"),
    /** The provider's error code for an undelivered or failed text (e.g. 30003), never its text. */
    errorCode: text("error_code"),
    sentAt: timestampTz("sent_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("sms_messages_provider_sid_key").on(t.providerSid),
    index("sms_messages_signer_id_idx").on(t.signerId),
    index("sms_messages_organization_to_idx").on(t.organizationId, t.to),
  ],
);

/**
 * A number that replied STOP (or STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT) to an organization's texts:
 * no text goes to it for that organization until it replies START (or UNSTOP), which deletes the row.
 */
export const smsOptOuts = pgTable(
  "sms_opt_outs",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    phone: text("phone").notNull(),
    /** The keyword the borrower sent, upper-cased (STOP…). */
    keyword: text("keyword").notNull(),
    stoppedAt: timestampTz("stopped_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("sms_opt_outs_organization_phone_key").on(t.organizationId, t.phone)],
);

export type SmsMessage = typeof smsMessages.$inferSelect;
export type NewSmsMessage = typeof smsMessages.$inferInsert;
export type SmsOptOut = typeof smsOptOuts.$inferSelect;
