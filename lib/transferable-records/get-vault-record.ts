import { asc, eq, inArray, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { organizations, packageDocuments, signingPackages, transferableControlLog, transferableRecords, type ControlAction, type TransferableRecord } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { objectDownload, type StoredDownload } from "@/lib/storage/objects";
import { vaultOrganizations } from "./vault-organizations";

/** An organization as the eVault names it: its id, its slug (the stable public identifier a sender types) and its name. */
type OrganizationRef = { id: number; slug: string; name: string };

export type ControlHistoryEntry = {
  seq: number;
  action: ControlAction;
  from: OrganizationRef | null;
  to: OrganizationRef | null;
  controller: OrganizationRef;
  at: Date;
  hash: string;
};

export type VaultRecordView = {
  id: string;
  packageId: string;
  packageTitle: string;
  documentId: string;
  documentName: string;
  status: "active" | "paper_out";
  authoritativeSha256: string;
  controller: OrganizationRef;
  pendingTransferee: OrganizationRef | null;
  pledgee: OrganizationRef | null;
  establishedAt: Date;
  paperOutAt: Date | null;
  /** What the caller's organizations are to the record (none: after declining an offer or releasing a pledge). */
  yourRole: "controller" | "offered" | "pledgee" | "none";
  history: ControlHistoryEntry[];
};

const controller = alias(organizations, "controller_org");
const transferee = alias(organizations, "transferee_org");
const pledgee = alias(organizations, "pledgee_org");

function recordQuery(db: Db) {
  return db
    .select({
      record: transferableRecords,
      packageTitle: signingPackages.title,
      documentName: packageDocuments.name,
      controllerName: controller.name,
      controllerSlug: controller.slug,
      transfereeName: transferee.name,
      transfereeSlug: transferee.slug,
      pledgeeName: pledgee.name,
      pledgeeSlug: pledgee.slug,
    })
    .from(transferableRecords)
    .innerJoin(signingPackages, eq(signingPackages.id, transferableRecords.packageId))
    .innerJoin(packageDocuments, eq(packageDocuments.id, transferableRecords.documentId))
    .innerJoin(controller, eq(controller.id, transferableRecords.controllerOrganizationId))
    .leftJoin(transferee, eq(transferee.id, transferableRecords.pendingTransfereeOrganizationId))
    .leftJoin(pledgee, eq(pledgee.id, transferableRecords.pledgeeOrganizationId));
}
type Row = Awaited<ReturnType<ReturnType<typeof recordQuery>["where"]>>[number];

function roleOf(record: TransferableRecord, mine: number[]): Exclude<VaultRecordView["yourRole"], "none"> | null {
  if (mine.includes(record.controllerOrganizationId)) return "controller";
  if (record.pendingTransfereeOrganizationId !== null && mine.includes(record.pendingTransfereeOrganizationId)) return "offered";
  if (record.pledgeeOrganizationId !== null && mine.includes(record.pledgeeOrganizationId)) return "pledgee";
  return null;
}

function viewOf(row: Row, yourRole: VaultRecordView["yourRole"], history: ControlHistoryEntry[]): VaultRecordView {
  const r = row.record;
  return {
    id: r.id,
    packageId: r.packageId,
    packageTitle: row.packageTitle,
    documentId: r.documentId,
    documentName: row.documentName,
    status: r.status,
    authoritativeSha256: r.authoritativeSha256,
    controller: { id: r.controllerOrganizationId, slug: row.controllerSlug, name: row.controllerName },
    pendingTransferee: r.pendingTransfereeOrganizationId !== null ? { id: r.pendingTransfereeOrganizationId, slug: row.transfereeSlug ?? "", name: row.transfereeName ?? "" } : null,
    pledgee: r.pledgeeOrganizationId !== null ? { id: r.pledgeeOrganizationId, slug: row.pledgeeSlug ?? "", name: row.pledgeeName ?? "" } : null,
    establishedAt: r.establishedAt,
    paperOutAt: r.paperOutAt,
    yourRole,
    history,
  };
}

/** The organizations the principal acts for in the eVault, with the identifier (slug) a sender names them by. */
export async function listMyVaultOrganizations(db: Db, principal: Principal): Promise<OrganizationRef[]> {
  const mine = vaultOrganizations(principal);
  if (mine.length === 0) return [];
  return db.select({ id: organizations.id, slug: organizations.slug, name: organizations.name }).from(organizations).where(inArray(organizations.id, mine)).orderBy(asc(organizations.name));
}

/** A record's control log, oldest first, with the organizations' names. */
export async function getControlHistory(db: Db, recordId: string): Promise<ControlHistoryEntry[]> {
  const entries = await db.select().from(transferableControlLog).where(eq(transferableControlLog.recordId, recordId)).orderBy(asc(transferableControlLog.seq));
  const ids = [...new Set(entries.flatMap((e) => [e.fromOrganizationId, e.toOrganizationId, e.controllerOrganizationId]).filter((id): id is number => id !== null))];
  const known = new Map(
    (ids.length ? await db.select({ id: organizations.id, slug: organizations.slug, name: organizations.name }).from(organizations).where(inArray(organizations.id, ids)) : []).map((o) => [o.id, o]),
  );
  const ref = (id: number | null) => (id === null ? null : (known.get(id) ?? { id, slug: "", name: "A deleted organization" }));
  return entries.map((e) => ({ seq: e.seq, action: e.action, from: ref(e.fromOrganizationId), to: ref(e.toOrganizationId), controller: ref(e.controllerOrganizationId)!, at: e.createdAt, hash: e.hash }));
}

/** One record, for an admin of its controller, of the organization it is offered to, or of its secured party; 404 for anyone else. */
export async function getVaultRecord(db: Db, options: { principal: Principal; recordId: string; afterOwnChange?: boolean }): Promise<VaultRecordView> {
  if (!isUuid(options.recordId)) throw NotFound("Transferable record not found.");
  const [row] = await recordQuery(db).where(eq(transferableRecords.id, options.recordId));
  // `afterOwnChange`: the caller just declined or released, which ends its part; it still gets the record as it left it.
  const role = row && (roleOf(row.record, vaultOrganizations(options.principal)) ?? (options.afterOwnChange ? "none" : null));
  if (!row || !role) throw NotFound("Transferable record not found.");
  return viewOf(row, role, await getControlHistory(db, row.record.id));
}

/** The eVault: records the principal's organizations control, are offered, or hold a pledge on (newest first). */
export async function listVaultRecords(db: Db, options: { principal: Principal }): Promise<VaultRecordView[]> {
  const mine = vaultOrganizations(options.principal);
  if (mine.length === 0) return [];
  const rows = await recordQuery(db)
    .where(
      or(
        inArray(transferableRecords.controllerOrganizationId, mine),
        inArray(transferableRecords.pendingTransfereeOrganizationId, mine),
        inArray(transferableRecords.pledgeeOrganizationId, mine),
      ),
    )
    .orderBy(transferableRecords.establishedAt);
  return rows.reverse().map((row) => viewOf(row, roleOf(row.record, mine)!, []));
}

/**
 * The authoritative copy itself (the sealed PDF, unmarked), only for an admin of the controlling
 * organization while the record is electronic; anyone else gets marked copies through the sealed
 * downloads. 404 for others, 409 after conversion to paper.
 */
export async function getAuthoritativeCopy(db: Db, options: { principal: Principal; recordId: string }): Promise<StoredDownload> {
  const record = await getVaultRecord(db, options);
  if (record.yourRole !== "controller") throw NotFound("Transferable record not found.");
  if (record.status === "paper_out") throw Conflict("This record was converted to paper; its electronic authoritative copy is retired.");
  const [row] = await db.select({ key: transferableRecords.authoritativeStorageKey }).from(transferableRecords).where(eq(transferableRecords.id, record.id));
  const key = row!.key;
  const name = `${record.documentName.replace(/\.pdf$/i, "").replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, " ").trim().slice(0, 120) || "Document"} (authoritative).pdf`;
  return objectDownload(db, { fileName: name, contentType: "application/pdf", sha256: record.authoritativeSha256, storageKey: key });
}

export type PublicRecordControl = {
  recordId: string;
  status: "active" | "paper_out";
  authoritativeSha256: string;
  controller: string;
  history: { action: string; from: string | null; to: string | null; at: Date }[];
};

/**
 * What `/verify` shows anyone holding a transferable record's file (its authoritative copy, or a copy
 * marked with the record's id): who controls it now and how control moved. Organization names only.
 */
export async function getPublicRecordControl(db: Db, where: { sha256?: string; recordId?: string }): Promise<PublicRecordControl | null> {
  const condition = where.sha256 ? eq(transferableRecords.authoritativeSha256, where.sha256) : where.recordId && isUuid(where.recordId) ? eq(transferableRecords.id, where.recordId) : null;
  if (!condition) return null;
  const [row] = await recordQuery(db).where(condition).limit(1);
  if (!row) return null;
  const history = await getControlHistory(db, row.record.id);
  return {
    recordId: row.record.id,
    status: row.record.status,
    authoritativeSha256: row.record.authoritativeSha256,
    controller: row.controllerName,
    history: history.map((h) => ({ action: h.action, from: h.from?.name ?? null, to: h.to?.name ?? null, at: h.at })),
  };
}
