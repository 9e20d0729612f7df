import { createHash } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { transferableControlLog, transferableRecords, type ControlAction, type ControlLogEntry, type TransferableRecord } from "@/db/schema";
import { canonicalJson, recordAuditEntry } from "@/lib/audit/record-audit-entry";

export type ControlChange = {
  action: ControlAction;
  fromOrganizationId: number | null;
  toOrganizationId: number | null;
  /** Who holds control once the entry applies. */
  controllerOrganizationId: number;
  actorUserId: string | null;
  note?: string | null;
  ipAddress?: string | null;
};

type HashedFields = ControlChange & { recordId: string; seq: number; prevHash: string; createdAt: Date };

/** The hash of a control-log entry: SHA-256 of its fields in canonical JSON, the previous entry's hash included. */
export function hashControlEntry(entry: HashedFields): string {
  return createHash("sha256")
    .update(
      canonicalJson({
        prevHash: entry.prevHash,
        recordId: entry.recordId,
        seq: entry.seq,
        action: entry.action,
        fromOrganizationId: entry.fromOrganizationId,
        toOrganizationId: entry.toOrganizationId,
        controllerOrganizationId: entry.controllerOrganizationId,
        actorUserId: entry.actorUserId,
        note: entry.note ?? null,
        createdAt: entry.createdAt.toISOString(),
      }),
    )
    .digest("hex");
}

/**
 * Appends one entry to a record's control log, inside the caller's transaction, with the record row
 * already locked (`for update`) by the caller: the entry links to the log's head, the record's head
 * moves to it, and the package's audit trail gets the same change with the entry's hash, so the two
 * chains vouch for each other. Returns the entry.
 */
export async function appendControlEntry(tx: Db, record: TransferableRecord, change: ControlChange, organizationId: number): Promise<ControlLogEntry> {
  const createdAt = new Date();
  const seq = record.logLength + 1;
  const fields: HashedFields = { ...change, recordId: record.id, seq, prevHash: record.logHeadHash, createdAt };
  const hash = hashControlEntry(fields);
  const [entry] = await tx
    .insert(transferableControlLog)
    .values({
      recordId: record.id,
      seq,
      action: change.action,
      fromOrganizationId: change.fromOrganizationId,
      toOrganizationId: change.toOrganizationId,
      controllerOrganizationId: change.controllerOrganizationId,
      actorUserId: change.actorUserId,
      note: change.note ?? null,
      prevHash: record.logHeadHash,
      hash,
      createdAt,
    })
    .returning();
  await tx.update(transferableRecords).set({ logHeadHash: hash, logLength: seq, updatedAt: createdAt }).where(eq(transferableRecords.id, record.id));
  record.logHeadHash = hash;
  record.logLength = seq;
  await recordAuditEntry(tx, {
    organizationId,
    packageId: record.packageId,
    actorUserId: change.actorUserId,
    action: `record.${change.action}`,
    entityType: "transferable_record",
    entityId: record.id,
    ipAddress: change.ipAddress,
    after: {
      seq,
      controlLogHash: hash,
      fromOrganizationId: change.fromOrganizationId,
      toOrganizationId: change.toOrganizationId,
      controllerOrganizationId: change.controllerOrganizationId,
    },
  });
  return entry!;
}

/**
 * Recomputes a record's control log: every entry's hash from its fields, each linked to the one before,
 * the first to `anchor` (the package's audit head at completion), and the record's head to the last.
 * `brokenAt` is the first entry that does not check out.
 */
export async function verifyControlLog(db: Db, { record, anchor }: { record: TransferableRecord; anchor: string }): Promise<{ verified: boolean; brokenAt: number | null; entries: ControlLogEntry[] }> {
  const entries = await db.select().from(transferableControlLog).where(eq(transferableControlLog.recordId, record.id)).orderBy(asc(transferableControlLog.seq));
  let prev = anchor;
  for (const [i, e] of entries.entries()) {
    const expected = hashControlEntry({ ...e, recordId: record.id, prevHash: prev });
    if (e.seq !== i + 1 || e.prevHash !== prev || e.hash !== expected) return { verified: false, brokenAt: e.seq, entries };
    prev = e.hash;
  }
  const verified = entries.length === record.logLength && prev === record.logHeadHash;
  return { verified, brokenAt: verified ? null : entries.length + 1, entries };
}
