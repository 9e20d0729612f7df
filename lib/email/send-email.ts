import type { Db } from "@/db/client";
import { outboxEmails } from "@/db/schema";
import { getEnv } from "@/lib/env";

export type Email = { to: string; subject: string; text: string; html?: string; replyTo?: string; fromName?: string };
export type SentEmail = { transport: "smtp" | "outbox"; messageId: string };

type Transporter = { sendMail: (m: Record<string, unknown>) => Promise<{ messageId: string }> };
let transporter: { url: string; instance: Transporter } | undefined;

async function smtpTransport(url: string): Promise<Transporter> {
  if (transporter?.url !== url) {
    const nodemailer = await import("nodemailer");
    transporter = { url, instance: nodemailer.createTransport(url) as unknown as Transporter };
  }
  return transporter.instance;
}

/**
 * EMAIL_FROM with its display name replaced by `fromName` ("Acme Lending via Closing & Signing"):
 * the address (and so SPF/DKIM alignment) stays ours, the name is the lender's.
 */
export function fromHeader(emailFrom: string, fromName: string | undefined): string {
  if (!fromName) return emailFrom;
  const address = /<([^<>]+)>\s*$/.exec(emailFrom)?.[1] ?? emailFrom.trim();
  const name = fromName.replace(/["\\\r\n<>]/g, "").trim();
  return name ? `"${name}" <${address}>` : emailFrom;
}

/**
 * Sends one email: through SMTP when SMTP_URL is set (text and, when given, HTML alternative),
 * otherwise into the dev outbox table that the app shows in development (text part only). Call it from a job (`send-email`), never inline in a request.
 */
export async function sendEmail(db: Db, email: Email): Promise<SentEmail> {
  const env = getEnv();
  if (env.SMTP_URL) {
    const info = await (await smtpTransport(env.SMTP_URL)).sendMail({
      from: fromHeader(env.EMAIL_FROM, email.fromName),
      to: email.to,
      subject: email.subject,
      text: email.text,
      ...(email.html ? { html: email.html } : {}),
      ...(email.replyTo ? { replyTo: email.replyTo } : {}),
    });
    return { transport: "smtp", messageId: info.messageId };
  }
  const [row] = await db
    .insert(outboxEmails)
    .values({ to: email.to, from: fromHeader(env.EMAIL_FROM, email.fromName), replyTo: email.replyTo ?? null, subject: email.subject, text: email.text, html: email.html ?? null })
    .returning({ id: outboxEmails.id });
  return { transport: "outbox", messageId: row!.id };
}
