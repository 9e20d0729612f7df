/** A rendered email: what the `send-email` job delivers. */
export type EmailMessage = { subject: string; text: string; html: string };

/** A link shown as a button in HTML and as `label: url` on its own line in text. */
export type EmailAction = { label: string; url: string };

export type EmailContent = {
  subject: string;
  /** Who the mail greets ("Hello <name>,"). */
  recipientName: string;
  /** Paragraphs of plain text; line breaks inside one are kept. */
  paragraphs: readonly string[];
  action?: EmailAction;
};

const SUBJECT_MAX = 500;

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
  const greeting = `Hello ${content.recipientName},`;
  const text = [greeting, ...content.paragraphs, ...(content.action ? [`${content.action.label}: ${content.action.url}`] : [])].join("\n\n");
  const paragraph = (p: string) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`;
  const html = [
    "<!doctype html>",
    `<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="font-family: system-ui, sans-serif; line-height: 1.5; color: #1a1a1a;">',
    paragraph(greeting),
    ...content.paragraphs.map(paragraph),
    ...(content.action
      ? [
          `<p><a href="${escapeHtml(content.action.url)}" style="display: inline-block; padding: 10px 16px; background: #1d4ed8; color: #ffffff; text-decoration: none; border-radius: 6px;">${escapeHtml(content.action.label)}</a></p>`,
          `<p style="font-size: 13px; color: #555555;">${escapeHtml(content.action.url)}</p>`,
        ]
      : []),
    "</body></html>",
  ].join("\n");
  return { subject, text, html };
}
