import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, outreachTemplates, type ChattelDocument, type OutreachMessage } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { getEnv } from "@/lib/env";
import { BadRequest } from "@/lib/errors";
import { BUILT_IN_TEMPLATES, type OutreachPurpose, type TemplateVariable } from "./built-in-templates";
import { renderTemplate } from "./render-template";

export type RecipientKind = OutreachMessage["recipientKind"];

export type OutreachDraft = {
  recipientKind: RecipientKind;
  /** Picks one of several co-borrowers or dealer contacts; must be one of the document's contacts. */
  recipientEmail?: string;
  purpose: OutreachPurpose;
  /** Fills `{{message}}` in the template. */
  message?: string;
  /** Replace the template's subject or body for this message (variables still apply). */
  subject?: string;
  body?: string;
};

export type RenderedOutreachMessage = {
  recipient: { name: string | null; email: string };
  subject: string;
  body: string;
};

/** Outreach only goes to the people recorded on the document, never to an arbitrary address. */
function pickRecipient(document: ChattelDocument, kind: RecipientKind, email?: string): { name: string | null; email: string } {
  const contacts =
    kind === "borrower"
      ? document.borrowerEmail
        ? [{ name: document.borrowerName, email: document.borrowerEmail }]
        : []
      : kind === "co_borrower"
        ? document.coBorrowers
        : document.dealerContacts;
  const label = kind.replace("_", "-");
  if (contacts.length === 0) throw BadRequest(`recipientKind: the document has no ${label} email address.`);
  if (email === undefined) {
    if (contacts.length > 1) throw BadRequest(`recipientEmail: the document has several ${label} contacts; name one.`);
    return contacts[0]!;
  }
  const match = contacts.find((c) => c.email.toLowerCase() === email.toLowerCase());
  if (!match) throw BadRequest(`recipientEmail: not a ${label} contact of this document.`);
  return match;
}

function describeCollateral(d: ChattelDocument): string {
  return [d.collateralYear, d.collateralMake, d.collateralModel].filter(Boolean).join(" ") || "the collateral";
}

/**
 * The recipient, subject and body an outreach message about `document` gets: the organization's
 * template for the purpose (or the built-in), the draft's overrides, the variables filled in. Shared by
 * sending (`createOutreachMessage`) and the console's preview, so the preview is what is mailed.
 */
export async function renderOutreachMessage(
  db: Db,
  options: { principal: Principal; document: ChattelDocument; draft: OutreachDraft },
): Promise<RenderedOutreachMessage> {
  const { document, draft } = options;
  const recipient = pickRecipient(document, draft.recipientKind, draft.recipientEmail);
  const [organization] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, document.organizationId));
  const [own] = await db
    .select()
    .from(outreachTemplates)
    .where(and(eq(outreachTemplates.organizationId, document.organizationId), eq(outreachTemplates.purpose, draft.purpose)));
  const template = own ?? BUILT_IN_TEMPLATES[draft.purpose];
  const values: Record<TemplateVariable, string | null> = {
    recipientName: recipient.name ?? recipient.email,
    borrowerName: document.borrowerName ?? "the borrower",
    documentTitle: document.title,
    documentType: document.type.replace(/_/g, " "),
    collateralDescription: describeCollateral(document),
    collateralSerial: document.collateralSerial,
    organizationName: organization?.name ?? null,
    senderName: options.principal.user.name,
    message: draft.message ?? null,
    appUrl: getEnv().APP_URL,
  };
  const subject = renderTemplate(draft.subject ?? template.subject, values, "subject").replace(/\s+/g, " ");
  const body = renderTemplate(draft.body ?? template.body, values, "body");
  if (!subject) throw BadRequest("subject: the rendered subject is empty.");
  return { recipient, subject, body };
}
