import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";

/** A rendered email: what the `send-email` job delivers. */
export type EmailMessage = { subject: string; text: string; html: string };

/** A link shown as a button in HTML and as `label: url` on its own line in text. */
export type EmailAction = { label: string; url: string };

/** The lender's brand on a borrower email: header, button colour, footer (see lib/branding). */
export type EmailBranding = {
  displayName: string;
  color: string;
  /** An absolute image URL (our origin's `/branding/<id>/logo`, or the organization's https logo URL). */
  logoSrc: string | null;
  supportEmail: string | null;
  supportPhone: string | null;
  footer: string | null;
};

export type EmailContent = {
  subject: string;
  /** Who the mail greets ("Hello <name>,"). */
  recipientName: string;
  /** Paragraphs of plain text; line breaks inside one are kept. */
  paragraphs: readonly string[];
  action?: EmailAction;
  branding?: EmailBranding;
  /** The greeting's and the footer's language (messages/<locale>.json, `email`); English by default. */
  locale?: Locale;
};

const SUBJECT_MAX = 500;
const DEFAULT_BUTTON_COLOR = "#1d4ed8";

function brandHeader(brand: EmailBranding): string {
  const name = escapeHtml(brand.displayName);
  const logo = brand.logoSrc ? `<img src="${escapeHtml(brand.logoSrc)}" alt="${name}" height="40" style="height: 40px; width: auto; display: block; margin-bottom: 4px;">` : "";
  return `<div style="border-bottom: 3px solid ${brand.color}; padding-bottom: 8px; margin-bottom: 16px;">${logo}<strong style="color: ${brand.color};">${name}</strong></div>`;
}

/** The lender's name, support contacts and footer line, for both parts. */
function brandFooterLines(brand: EmailBranding, t: ReturnType<typeof borrowerTranslator<"email">>): string[] {
  const contact = [brand.supportEmail, brand.supportPhone].filter(Boolean).join(" · ");
  return [brand.displayName, ...(contact ? [t("questions", { contact })] : []), ...(brand.footer ? [brand.footer] : [])];
}

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/**
 * The one builder behind every template: the same content as plain text and as escaped HTML, so the
 * two parts cannot say different things. Subjects are single-line and capped at the job's limit.
 */
export function buildEmail(content: EmailContent): EmailMessage {
  const subject = content.subject.replace(/\s+/g, " ").trim().slice(0, SUBJECT_MAX);
  const t = borrowerTranslator(content.locale ?? "en", "email");
  const greeting = t("hello", { name: content.recipientName });
  const brand = content.branding;
  const footerLines = brand ? brandFooterLines(brand, t) : [];
  const text = [
    greeting,
    ...content.paragraphs,
    ...(content.action ? [`${content.action.label}: ${content.action.url}`] : []),
    ...(footerLines.length ? [["--", ...footerLines].join("\n")] : []),
  ].join("\n\n");
  const paragraph = (p: string) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`;
  const color = brand?.color ?? DEFAULT_BUTTON_COLOR;
  const html = [
    "<!doctype html>",
    `<html lang="${content.locale ?? "en"}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a;">',
    ...(brand ? [brandHeader(brand)] : []),
    paragraph(greeting),
    ...content.paragraphs.map(paragraph),
    ...(content.action
      ? [
          `<p><a href="${escapeHtml(content.action.url)}" style="display: inline-block; padding: 10px 16px; background: ${color}; color: #ffffff; text-decoration: none; border-radius: 6px;">${escapeHtml(content.action.label)}</a></p>`,
          `<p style="font-size: 13px; color: #555555;">${escapeHtml(content.action.url)}</p>`,
        ]
      : []),
    ...(footerLines.length
      ? [`<hr style="border: 0; border-top: 1px solid #dddddd;">`, `<p style="font-size: 13px; color: #555555;">${footerLines.map(escapeHtml).join("<br>")}</p>`]
      : []),
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}
