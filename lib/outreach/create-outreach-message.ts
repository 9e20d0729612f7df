import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, outreachMessages, outreachTemplates, type ChattelDocument, type OutreachMessage } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getChattelDocumentOrThrow } from "@/lib/chattel-documents/get-chattel-document-or-throw";
import { getEnv } from "@/lib/env";
import { BadRequest } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { BUILT_IN_TEMPLATES, type OutreachPurpose, type TemplateVariable } from "./built-in-templates";
import { renderTemplate } from "./render-template";
import { sendOutreachMessageJob } from "./send-outreach-message-job";

export type RecipientKind = OutreachMessage["recipientKind"];

export type CreateOutreachMessageOptions = {
  principal: Principal;
  documentId: string;
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
 * Renders a message from the organization's template (or the built-in) and queues it: the row
 * (status `queued`, a fresh reply token) and the `send-outreach-message` job commit together.
 */
export async function createOutreachMessage(db: Db, options: CreateOutreachMessageOptions): Promise<OutreachMessage> {
  const { principal } = options;
  requireCapability(principal, "outreach:write", "You do not have permission to send outreach.");
  return db.transaction(async (tx) => {
    const document = await getChattelDocumentOrThrow(tx, { principal, documentId: options.documentId, capability: "outreach:write" });
    const recipient = pickRecipient(document, options.recipientKind, options.recipientEmail);
    const [organization] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, document.organizationId));
    const [own] = await tx
      .select()
      .from(outreachTemplates)
      .where(and(eq(outreachTemplates.organizationId, document.organizationId), eq(outreachTemplates.purpose, options.purpose)));
    const template = own ?? BUILT_IN_TEMPLATES[options.purpose];
    const values: Record<TemplateVariable, string | null> = {
      recipientName: recipient.name ?? recipient.email,
      borrowerName: document.borrowerName ?? "the borrower",
      documentTitle: document.title,
      documentType: document.type.replace(/_/g, " "),
      collateralDescription: describeCollateral(document),
      collateralSerial: document.collateralSerial,
      organizationName: organization?.name ?? null,
      senderName: principal.user.name,
      message: options.message ?? null,
      appUrl: getEnv().APP_URL,
    };
    const subject = renderTemplate(options.subject ?? template.subject, values, "subject").replace(/\s+/g, " ");
    const body = renderTemplate(options.body ?? template.body, values, "body");
    if (!subject) throw BadRequest("subject: the rendered subject is empty.");
    const [message] = await tx
      .insert(outreachMessages)
      .values({
        organizationId: document.organizationId,
        chattelDocumentId: document.id,
        signingPackageId: document.signingPackageId,
        recipientKind: options.recipientKind,
        recipientName: recipient.name,
        recipientEmail: recipient.email,
        purpose: options.purpose,
        subject,
        body,
        // Lower-case hex: survives mail systems that change the case of the local part.
        replyToken: randomBytes(16).toString("hex"),
        createdByUserId: principal.user.id,
      })
      .returning();
    await enqueueJob(tx, sendOutreachMessageJob, { messageId: message!.id }, { idempotencyKey: message!.id });
    return message!;
  });
}
