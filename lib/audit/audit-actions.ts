import type { DocumentExecutionStatus, SigningStatus } from "@/db/schema";

/**
 * Every action the audit trail records, with what it means. `recordAuditEntry` takes only these, so a
 * misspelt or unlisted action fails the typecheck instead of writing a string nobody reads back (the
 * manager's trail labels, the certificate, the chain check and the consent lookup all match on them).
 * A package's status changes are `signing.<status>` and a document's execution changes
 * `document.<execution status>`, written by the two state machines.
 */
const STATIC_ACTIONS = {
  "organization.created": "An organization was created",
  "organization.updated": "An organization's name or settings changed",
  "organization.deleted": "An organization was deleted",
  "company.created": "A company was created",
  "company.updated": "A company changed",
  "company.deleted": "A company was deleted",
  "location.created": "A location was created",
  "location.updated": "A location changed",
  "location.deleted": "A location was deleted",
  "membership.invited": "Someone was invited to an organization",
  "membership.role_changed": "A member's role changed",
  "membership.removed": "A member was removed",
  "user.invite_accepted": "An invitee accepted and has an account",
  "settings.updated": "Organization settings changed",
  "settings.logo_uploaded": "The organization's logo was replaced",
  "settings.logo_removed": "The organization's logo was removed",
  "flow.created": "A signing flow was created",
  "flow.updated": "A signing flow changed",
  "template.created": "A template was created",
  "template.updated": "A template changed",
  "template.document_added": "A document was added to a template",
  "template.document_removed": "A document was removed from a template",
  "template.document_execution_mode_changed": "How a template's document is signed changed",
  "template.fields_replaced": "A template document's fields were placed",
  "signing.created": "A package was created",
  "signing.updated": "A draft package was edited",
  "signing.deleted": "A draft package was deleted",
  "signing.appointment_updated": "A package's closing appointment changed",
  "signing.sealed": "A package's sealed PDFs and certificate were made",
  "signer.added": "A signer was added",
  "signer.updated": "A signer changed",
  "signer.removed": "A signer was removed",
  "signer.notified": "A signer was sent their invitation",
  "signer.invitation_resent": "A signer's invitation was sent again",
  "signer.reminded": "A signer was reminded",
  "signer.link_opened": "A signer opened their access link",
  "signer.auth_requested": "A signer asked for a one-time code",
  "signer.auth_passed": "A signer proved who they are",
  "signer.auth_failed": "A signer gave a wrong code",
  "signer.viewed": "A signer opened the package for the first time",
  "signer.consented": "A signer accepted electronic records and signatures",
  "signer.signed": "A signer finished signing",
  "signer.declined": "A signer declined the package",
  "signer.texts_stopped": "A signer stopped text messages (STOP)",
  "signer.texts_resumed": "A signer allowed text messages again (START)",
  "signer.in_person_started": "A manager checked a signer's identification and handed them the device to sign in person",
  "signer.in_person_ended": "The device of an in-person signing was handed back to its host",
  "signer.embedded_url_issued": "An embedded signing URL was issued for a signer",
  "signer.embedded_session_started": "A signer opened an embedded signing URL inside the lender's site",
  "settings.embed_origins_updated": "The origins allowed to frame embedded signing changed",
  "esignature.recorded": "A signature was applied to a document",
  "document.added": "A document was added to a package",
  "document.removed": "A document was removed from a package",
  "document.fields_replaced": "A package document's fields were placed",
  "document.execution_mode_changed": "How a package document is signed changed",
  "document.converted_to_ink": "A document left to e-sign is to be signed in ink",
  "document.created": "A chattel document was created",
  "document.updated": "A chattel document changed",
  "document.deleted": "A chattel document was deleted",
  "document.file_uploaded": "A file was added to a chattel document",
  "document.file_deleted": "A file was removed from a chattel document",
  "scanback.uploaded": "Scans were uploaded",
  "scanback.page_assigned": "A scanned page was assigned by hand",
  "scanback.page_discarded": "A scanned page was discarded",
  "settlement_agent.link_issued": "The settlement agent's link was emailed",
  "settlement_agent.link_revoked": "The settlement agent's link was revoked",
  "settlement_agent.link_opened": "The settlement agent opened the link",
  "settlement_agent.packet_downloaded": "The settlement agent downloaded the table packet",
} as const;

export type AuditAction = keyof typeof STATIC_ACTIONS | `signing.${SigningStatus}` | `document.${DocumentExecutionStatus}`;

/** What each fixed action means (status changes are described by their status). */
export const AUDIT_ACTION_MEANINGS: Readonly<Record<keyof typeof STATIC_ACTIONS, string>> = STATIC_ACTIONS;
