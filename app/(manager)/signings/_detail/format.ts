import { joinNames, relativeTime } from "@/lib/format";
import type { ManagerSigningPage } from "@/lib/views/get-manager-signing-page";
import type { AuditAction } from "@/lib/audit/audit-actions";

/** The words of the manager's package view; dates and name lists come from `lib/format.ts`. */

type Detail = ManagerSigningPage["detail"];
type Signer = Detail["signers"][number];

/**
 * The signers whose turn it is: the lowest routing group that still has someone to sign (equal
 * numbers sign in parallel), as `notifyNextRoutingGroup` moves through them.
 */
export function currentGroup(signers: Signer[]): Signer[] {
  const open = signers.filter((s) => s.status !== "signed" && s.status !== "declined");
  if (open.length === 0) return [];
  const order = Math.min(...open.map((s) => s.routingOrder));
  return open.filter((s) => s.routingOrder === order);
}

/** The sentence on top of the page: where the package stands and since when. */
export function statusSentence(detail: Detail, now: Date): string {
  const when = (value: string | null) => (value ? ` ${relativeTime(value, now)}` : "");
  switch (detail.status) {
    case "draft":
      return `Draft — not sent yet. Created${when(detail.createdAt)}.`;
    case "sent":
    case "in_progress": {
      const waiting = currentGroup(detail.signers).map((s) => s.name);
      const names = waiting.length === 0 ? "the signers" : joinNames(waiting);
      return `Waiting for ${names} — sent${when(detail.sentAt)}.`;
    }
    case "completed":
      return `Completed — everyone signed. Finished${when(detail.completedAt)}.`;
    case "cancelled":
      return `Cancelled${when(detail.cancelledAt)}${detail.cancelReason ? ` — reason: “${detail.cancelReason}”` : ""}.`;
    case "declined": {
      const decliner = detail.signers.find((s) => s.status === "declined");
      const reason = decliner?.declineReason ? ` — reason: “${decliner.declineReason}”` : "";
      return `Declined by ${decliner?.name ?? "a signer"}${when(detail.declinedAt)}${reason}.`;
    }
    case "expired":
      return `Expired${when(detail.expiresAt)} before everyone signed.`;
  }
}

/** The trail's words for the actions a package's trail shows; a misspelt key fails the typecheck. */
const ACTIONS: Partial<Record<AuditAction, string>> = {
  "signing.created": "Package created",
  "signing.updated": "Package edited",
  "signing.sent": "Package sent",
  "signing.in_progress": "Signing started",
  "signing.completed": "Package completed",
  "signing.cancelled": "Package cancelled",
  "signing.declined": "Package declined",
  "signing.expired": "Package expired",
  "signing.deleted": "Draft deleted",
  "signer.added": "Signer added",
  "signer.updated": "Signer changed",
  "signer.removed": "Signer removed",
  "signer.notified": "Signer emailed",
  "signer.reminded": "Reminder sent",
  "signer.viewed": "Signer opened the package",
  "signer.consented": "Signer accepted e-records",
  "signer.signed": "Signer finished signing",
  "signer.declined": "Signer declined",
  "signer.texts_stopped": "Signer stopped text messages (STOP)",
  "signer.texts_resumed": "Signer allowed text messages again (START)",
  "attachment.requested": "Attachment asked for",
  "attachment.request_removed": "Attachment request withdrawn",
  "attachment.request_changed": "Attachment request made required or optional",
  "attachment.added": "Signer sent an attachment",
  "attachment.accepted": "Attachment accepted",
  "attachment.rejected": "Attachment rejected",
  "esignature.recorded": "Document signed",
  "document.added": "Document added",
  "document.removed": "Document removed",
  "document.fields_replaced": "Fields placed",
  "signing.sealed": "Package sealed",
  // Hybrid closings (docs/hybrid-closings.md).
  "document.execution_mode_changed": "How the document is signed changed",
  "document.converted_to_ink": "Document converted to ink",
  "signing.appointment_updated": "Closing appointment changed",
  "document.esigned": "Document e-signed",
  "document.acknowledged": "Receipt acknowledged",
  "scanback.uploaded": "Scans uploaded",
  "scanback.page_assigned": "Scanned page assigned by hand",
  "scanback.page_discarded": "Scanned page discarded",
  "document.scan_uploaded": "Scan attached",
  "document.accepted": "Scan accepted",
  "document.rejected": "Scan rejected",
  "settlement_agent.link_issued": "Settlement agent link emailed",
  "settlement_agent.link_revoked": "Settlement agent link revoked",
  "settlement_agent.link_opened": "Settlement agent opened the link",
  "settlement_agent.packet_downloaded": "Settlement agent downloaded the table packet",
};

/** A readable name for an audit action; unknown actions show as recorded. */
export function auditActionLabel(action: string): string {
  return ACTIONS[action as AuditAction] ?? action;
}

const BROWSERS: [string, RegExp][] = [
  ["Edge", /Edg\/(\d+)/],
  ["Firefox", /Firefox\/(\d+)/],
  ["Chrome", /(?:Chrome|Chromium|CriOS)\/(\d+)/],
  ["Safari", /Version\/(\d+).*Safari/],
];
const SYSTEMS: [string, RegExp][] = [
  ["iOS", /iPhone|iPad/],
  ["Android", /Android/],
  ["Windows", /Windows/],
  ["macOS", /Mac OS X/],
  ["Linux", /Linux/],
];

/** "Chrome 131 on Linux" from a user agent (the page keeps the raw string in a title). */
export function browserOf(userAgent: string | null): string | null {
  if (!userAgent) return null;
  const browser = BROWSERS.map(([name, re]) => [name, re.exec(userAgent)?.[1]] as const).find(([, version]) => version !== undefined);
  const system = SYSTEMS.find(([, re]) => re.test(userAgent))?.[0];
  if (!browser) return userAgent.slice(0, 40);
  return `${browser[0]} ${browser[1]}${system ? ` on ${system}` : ""}`;
}
