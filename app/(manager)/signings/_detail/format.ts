import { formatDateTime, joinNames, relativeTime } from "@/lib/format";
import { IDENTIFICATION_LABELS } from "@/lib/in-person/identification";
import { AUTH_METHOD_LABELS } from "@/lib/signer-access/rules";
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
  "signer.auth_requested": "Signer asked for a one-time code",
  "signer.auth_passed": "Signer proved who they are",
  "signer.auth_failed": "Signer gave a wrong code",
  // Signing at the desk (docs/in-person-signing.md) and inside the lender's site (docs/embedded-signing.md).
  "signer.in_person_started": "Signing in person started",
  "signer.in_person_url_issued": "In-person signing URL issued",
  "signer.in_person_ended": "Device handed back to the host",
  "signer.embedded_url_issued": "Embedded signing URL issued",
  "signer.embedded_session_started": "Signer opened embedded signing",
  "settings.embed_origins_updated": "Sites allowed to frame signing changed",
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

type Recorded = Record<string, unknown>;

function record(value: unknown): Recorded | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Recorded) : null;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

/** "Max Manager (max@lender.test)" from a recorded `{ name, email }`; null when neither is there. */
function person(value: unknown): string | null {
  const who = record(value);
  const name = text(who?.name);
  const email = text(who?.email);
  if (name && email) return `${name} (${email})`;
  return name ?? email;
}

/** "Driver's license, Texas, ending 4821" from a recorded `{ idType, idIssuer, idLastFour }`. */
function identificationOf(value: unknown): string | null {
  const id = record(value);
  if (!id) return null;
  const kind = text(id.idType);
  const parts = [
    kind ? (IDENTIFICATION_LABELS[kind as keyof typeof IDENTIFICATION_LABELS] ?? kind) : null,
    text(id.idIssuer),
    text(id.idLastFour) ? `ending ${String(id.idLastFour)}` : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(", ") : null;
}

/**
 * A short line under an entry's action, from what the entry recorded (`after`), for the entries whose
 * action alone does not say enough: who hosted an in-person signing and the identification they
 * checked, which sites could frame an embedded session and who issued its URL, how a signer proved who
 * they are. Null for every other entry, and for an entry that recorded nothing readable.
 */
export function auditEntrySummary(action: string, after: unknown): string | null {
  const recorded = record(after);
  if (!recorded) return null;
  switch (action) {
    case "signer.in_person_url_issued":
    case "signer.in_person_started": {
      const host = person(recorded.host);
      const id = identificationOf(recorded.identification);
      const parts = [host ? `Hosted by ${host}` : null, id ? `identification checked: ${id}` : null].filter((p): p is string => p !== null);
      const via = recorded.via === "api" ? " (started through the API)" : "";
      return parts.length > 0 ? `${parts.join("; ")}${via}` : null;
    }
    case "signer.in_person_ended": {
      const host = person(recorded.host);
      return host ? `Hosted by ${host}` : null;
    }
    case "signer.embedded_url_issued": {
      const until = text(recorded.expiresAt);
      return until ? `Single use, can be opened until ${formatDateTime(until)}` : null;
    }
    case "signer.embedded_session_started": {
      const origins = Array.isArray(recorded.origins) ? recorded.origins.filter((o): o is string => typeof o === "string") : [];
      const issuer = person(recorded.issuedBy);
      const parts = [
        origins.length > 0 ? `Inside ${joinNames(origins)}` : null,
        issuer ? `URL issued by ${issuer}` : null,
      ].filter((p): p is string => p !== null);
      return parts.length > 0 ? parts.join("; ") : null;
    }
    case "settings.embed_origins_updated": {
      const origins = Array.isArray(recorded.origins) ? recorded.origins.filter((o): o is string => typeof o === "string") : null;
      if (!origins) return null;
      return origins.length > 0 ? `Now ${joinNames(origins)}` : "Now none";
    }
    case "signer.auth_passed": {
      const method = text(recorded.method);
      return method ? `By ${AUTH_METHOD_LABELS[method as keyof typeof AUTH_METHOD_LABELS] ?? method}` : null;
    }
    default:
      return null;
  }
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
