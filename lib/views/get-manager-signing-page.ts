import { and, count, eq, inArray, lte, max } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog, companies, locations, organizations, users, type AuditEntry } from "@/db/schema";
import { getSigningAuditTrail } from "@/lib/signings/get-signing-audit-trail";
import { canAccess, hasCapability, type Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { iso } from "@/lib/iso";
import { getPackageSeal, type PackageSealView } from "@/lib/seals/get-package-seal";
import { listSignerTexts, type SignerTexts } from "@/lib/sms/list-signer-texts";
import { listSigningVaultDeliveries, type SigningVaultDelivery } from "@/lib/vault/list-signing-vault-deliveries";
import { getSigningCreator } from "@/lib/packages/get-signing-creator";
import { getSigningDetail } from "@/lib/signings/get-signing-detail";
import { serializeSigningDetail, type SigningDetailJson } from "@/lib/signings/serialize-signing-detail";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";

export type ManagerAuditEntry = {
  id: number;
  /** 1-based position in the package's chain. */
  position: number;
  at: string;
  action: string;
  actorName: string | null;
  ipAddress: string | null;
  /** The user agent recorded with the entry (consent, e-signature), when there is one. */
  userAgent: string | null;
  /** The signer or document the entry is about, by name, when it is one of this package's. */
  subject: string | null;
  /** What the entry recorded (`after`), for the page's one-line summary of it (`auditEntrySummary`). */
  recorded: unknown;
};

export type ManagerSigningPage = {
  /** `getSigningDetail`'s rows in their `/v1` wire form (ISO dates), as the page components read them. */
  detail: SigningDetailJson;
  place: { organizationName: string; companyName: string; locationName: string };
  creatorName: string | null;
  /** The caller may send, remind, cancel, edit and delete this package (`signings:write` in its scope). */
  canWrite: boolean;
  /** Last `signer.reminded` per signer id. */
  lastReminderAt: Record<string, string>;
  /** `null` when the caller may not read audit trails. */
  audit: {
    entries: ManagerAuditEntry[];
    total: number;
    verified: boolean;
    /** The first entry that does not verify, with its position in the chain. */
    brokenAt: { id: number; position: number; action: string; at: string } | null;
    nextCursor: string | null;
  } | null;
  vaultDeliveries: SigningVaultDelivery[];
  /** The sealed copies of a completed package (or the sealing job's state); null before completion. */
  seal: PackageSealView | null;
  /** Per signer id with a mobile number: consent to texts, a STOP from the number, the last text's status. */
  texts: Record<string, SignerTexts>;
};

export const MANAGER_AUDIT_PAGE_SIZE = 100;

/**
 * Everything the manager's package page shows, through the functions `/v1` uses
 * (`getSigningDetail`, `getSigningAuditTrail` with its chain verification,
 * `listSigningVaultDeliveries`), plus the names the page needs instead of ids. 404 (NotFound)
 * for a package the caller does not reach with `signings:read`. `auditCursor` is the trail's
 * `nextCursor`; a cursor that does not decode starts again from the first entry.
 */
export async function getManagerSigningPage(
  db: Db,
  options: { principal: Principal; packageId: string; auditCursor?: string },
): Promise<ManagerSigningPage> {
  const { principal, packageId } = options;
  const signing = await getSigningOrThrow(db, { principal, packageId, capability: "signings:read" });
  const [detail, place, creator, reminders, vaultDeliveries, seal] = await Promise.all([
    getSigningDetail(db, { principal, packageId }),
    db
      .select({ organizationName: organizations.name, companyName: companies.name, locationName: locations.name })
      .from(locations)
      .innerJoin(companies, eq(companies.id, locations.companyId))
      .innerJoin(organizations, eq(organizations.id, locations.organizationId))
      .where(eq(locations.id, signing.locationId))
      .limit(1),
    getSigningCreator(db, signing),
    db
      .select({ signerId: auditLog.entityId, at: max(auditLog.createdAt) })
      .from(auditLog)
      .where(and(eq(auditLog.packageId, signing.id), eq(auditLog.action, "signer.reminded")))
      .groupBy(auditLog.entityId),
    listSigningVaultDeliveries(db, { principal, packageId }),
    getPackageSeal(db, { packageId: signing.id }),
  ]);

  const texts = await listSignerTexts(db, { organizationId: signing.organizationId, signers: detail.signers });
  const lastReminderAt: Record<string, string> = {};
  for (const r of reminders) if (r.at) lastReminderAt[r.signerId] = iso(new Date(r.at));

  let audit: ManagerSigningPage["audit"] = null;
  if (hasCapability(principal, "audit:read") && canAccess(principal, "audit:read", signing)) {
    const read = (cursor?: string) => getSigningAuditTrail(db, { principal, packageId, limit: MANAGER_AUDIT_PAGE_SIZE, cursor });
    const trail = await read(options.auditCursor).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "bad_request") return read();
      throw error;
    });
    // Entries of the package up to an id (all without one): the total, and positions in the chain.
    const entriesUpTo = async (id?: number) =>
      (await db.select({ n: count() }).from(auditLog).where(and(eq(auditLog.packageId, signing.id), id === undefined ? undefined : lte(auditLog.id, id))))[0]?.n ?? 0;
    const total = await entriesUpTo();
    const first = trail.rows[0];
    const before = first ? (await entriesUpTo(first.id)) - 1 : 0;
    const names = await actorNames(db, trail.rows);
    const subjects = new Map<string, string>([
      ...detail.signers.map((s) => [s.id, s.name] as const),
      ...detail.documents.map((d) => [d.id, d.name] as const),
    ]);
    let brokenAt: NonNullable<ManagerSigningPage["audit"]>["brokenAt"] = null;
    if (trail.brokenAt !== null) {
      const [broken] = await db.select().from(auditLog).where(eq(auditLog.id, trail.brokenAt));
      brokenAt = { id: trail.brokenAt, position: await entriesUpTo(trail.brokenAt), action: broken?.action ?? "", at: broken ? iso(broken.createdAt) : "" };
    }
    audit = {
      entries: trail.rows.map((row, index) => ({
        id: row.id,
        position: before + index + 1,
        at: iso(row.createdAt),
        action: row.action,
        actorName: row.actorUserId ? (names.get(row.actorUserId) ?? null) : agentActorName(row),
        ipAddress: row.ipAddress,
        userAgent: userAgentOf(row),
        subject: subjectOf(row, subjects),
        recorded: row.after ?? null,
      })),
      total,
      verified: trail.verified,
      brokenAt,
      nextCursor: trail.nextCursor,
    };
  }

  return {
    detail: serializeSigningDetail(detail),
    place: place[0] ?? { organizationName: "", companyName: "", locationName: "" },
    creatorName: creator?.name ?? null,
    canWrite: hasCapability(principal, "signings:write") && canAccess(principal, "signings:write", signing),
    lastReminderAt,
    audit,
    vaultDeliveries,
    seal,
    texts,
  };
}

async function actorNames(db: Db, rows: AuditEntry[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((r) => r.actorUserId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const found = await db.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, ids));
  return new Map(found.map((u) => [u.id, u.name]));
}

/** The package's signer or document an entry is about: its entity, or the document/signer it names. */
function subjectOf(entry: AuditEntry, names: Map<string, string>): string | null {
  const after = (entry.after ?? {}) as { documentId?: unknown; signerId?: unknown };
  for (const id of [entry.entityId, after.documentId, after.signerId]) {
    if (typeof id === "string" && names.has(id)) return names.get(id)!;
  }
  return null;
}

/** A settlement agent acting through their link has no account: the entry names them (`after.actor`). */
function agentActorName(entry: AuditEntry): string | null {
  const actor = (entry.after as { actor?: { type?: unknown; name?: unknown } } | null)?.actor;
  return actor?.type === "settlement_agent" && typeof actor.name === "string" ? `${actor.name} (settlement agent)` : null;
}

function userAgentOf(entry: AuditEntry): string | null {
  const after = entry.after;
  if (after && typeof after === "object" && "userAgent" in after && typeof after.userAgent === "string") return after.userAgent;
  return null;
}
