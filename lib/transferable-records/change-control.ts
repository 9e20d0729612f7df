import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, transferableRecords, type ControlAction, type TransferableRecord } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { BadRequest, Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { emitEvent } from "@/lib/webhooks/emit-event";
import type { WebhookEventType } from "@/lib/webhooks/event-types";
import { appendControlEntry } from "./control-log";
import { getVaultRecord, type VaultRecordView } from "./get-vault-record";
import { vaultOrganizations } from "./vault-organizations";

type Base = { principal: Principal; recordId: string; ipAddress?: string | null; note?: string | null };

export const RECORD_NOT_FOUND = "Transferable record not found.";

/**
 * Locks the record (`for update`: concurrent changes to one record run one after another, and each
 * sees what the one before did) and checks that the principal administers the organization in
 * `role`. 404 for a record the principal has no part in, or an id that is not one.
 */
async function lockFor(tx: Db, options: Base, role: "controller" | "transferee" | "pledgee"): Promise<{ record: TransferableRecord; actingFor: number }> {
  if (!isUuid(options.recordId)) throw NotFound(RECORD_NOT_FOUND);
  const [record] = await tx.select().from(transferableRecords).where(eq(transferableRecords.id, options.recordId)).for("update");
  const mine = vaultOrganizations(options.principal);
  const holder = record && { controller: record.controllerOrganizationId, transferee: record.pendingTransfereeOrganizationId, pledgee: record.pledgeeOrganizationId }[role];
  if (!record || holder === null || holder === undefined || !mine.includes(holder)) {
    const related = record && [record.controllerOrganizationId, record.pendingTransfereeOrganizationId, record.pledgeeOrganizationId].some((o) => o !== null && mine.includes(o));
    if (!related) throw NotFound(RECORD_NOT_FOUND);
    throw Conflict(ROLE_MESSAGES[role]);
  }
  return { record, actingFor: holder };
}

const ROLE_MESSAGES = {
  controller: "Only the organization that controls this record can do that; control has moved or was never yours.",
  transferee: "There is no offer of this record to your organization.",
  pledgee: "This record is not pledged to your organization.",
} as const;

function assertActive(record: TransferableRecord, what: string) {
  if (record.status === "paper_out") throw Conflict(`This record was converted to paper; it can no longer ${what}.`);
}

/**
 * The organization a transfer or pledge names: by its slug (`toOrganization`, the public identifier
 * its admins see on their eVault page) or, still accepted, by its numeric id (`toOrganizationId`).
 */
async function requireOtherOrganization(tx: Db, record: TransferableRecord, target: Target): Promise<number> {
  const bySlug = target.toOrganization !== undefined && target.toOrganization !== null;
  let organization: { id: number } | undefined;
  if (bySlug) {
    const slug = target.toOrganization;
    if (typeof slug !== "string" || !/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/.test(slug)) throw BadRequest("organization: give the organization's identifier (lower-case letters, digits and dashes), as its admins see it on their eVault page.");
    [organization] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, slug));
    if (!organization) throw BadRequest("organization: no organization on the service has that identifier.");
  } else {
    const id = target.toOrganizationId;
    if (typeof id !== "number" || !Number.isSafeInteger(id) || id <= 0) throw BadRequest("organization: give the identifier of an organization on the service.");
    [organization] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id));
    if (!organization) throw BadRequest("organizationId: no such organization.");
  }
  if (organization.id === record.controllerOrganizationId) throw BadRequest("organization: your organization already controls this record.");
  return organization.id;
}

type Target = { toOrganization?: unknown; toOrganizationId?: unknown };

const CONTROL_EVENTS: Record<Exclude<ControlAction, "established">, WebhookEventType> = {
  transfer_offered: "transferable_record.transfer_offered",
  transfer_accepted: "transferable_record.transfer_accepted",
  transfer_declined: "transferable_record.transfer_declined",
  transfer_withdrawn: "transferable_record.transfer_withdrawn",
  pledged: "transferable_record.pledged",
  released: "transferable_record.released",
  paper_out: "transferable_record.converted_to_paper",
};

async function change(
  db: Db,
  options: Base,
  role: "controller" | "transferee" | "pledgee",
  apply: (record: TransferableRecord, tx: Db, actingFor: number) => Promise<{ set: Partial<TransferableRecord>; action: Exclude<ControlAction, "established">; from: number | null; to: number | null }>,
): Promise<VaultRecordView> {
  const note = options.note === undefined || options.note === null ? null : String(options.note).trim().slice(0, 500) || null;
  await db.transaction(async (tx) => {
    const { record, actingFor } = await lockFor(tx, options, role);
    const { set, action, from, to } = await apply(record, tx, actingFor);
    await tx.update(transferableRecords).set(set).where(and(eq(transferableRecords.id, record.id)));
    const entry = await appendControlEntry(
      tx,
      record,
      {
        action,
        fromOrganizationId: from,
        toOrganizationId: to,
        controllerOrganizationId: set.controllerOrganizationId ?? record.controllerOrganizationId,
        actorUserId: options.principal.user.id,
        note,
        ipAddress: options.ipAddress,
      },
      actingFor,
    );
    // The same transaction as the entry: the event is sent exactly when the change commits. Each
    // organization the change concerns (the controller, the one offered, pledged or released) hears of it.
    const recipients = new Set([entry.controllerOrganizationId, entry.fromOrganizationId, entry.toOrganizationId].filter((o): o is number => o !== null));
    for (const organizationId of recipients) {
      await emitEvent(tx, CONTROL_EVENTS[action], {
        organizationId,
        packageId: record.packageId,
        recordId: record.id,
        documentId: record.documentId,
        seq: entry.seq,
        controllerOrganizationId: entry.controllerOrganizationId,
        fromOrganizationId: entry.fromOrganizationId,
        toOrganizationId: entry.toOrganizationId,
      });
    }
  });
  return getVaultRecord(db, { principal: options.principal, recordId: options.recordId, afterOwnChange: true });
}

/** The controller offers control to another organization; it passes only when that organization accepts. One offer at a time. */
export function offerTransfer(db: Db, options: Base & Target) {
  return change(db, options, "controller", async (record, tx) => {
    assertActive(record, "be transferred");
    if (record.pendingTransfereeOrganizationId !== null) throw Conflict("A transfer of this record is already pending; it must be accepted, declined or withdrawn first.");
    if (record.pledgeeOrganizationId !== null) throw Conflict("This record is pledged; the secured party must release it before control can be transferred.");
    const to = await requireOtherOrganization(tx, record, options);
    return { set: { pendingTransfereeOrganizationId: to }, action: "transfer_offered", from: record.controllerOrganizationId, to };
  });
}

/** The offered organization takes control: from now on only it can transfer the record or read the authoritative copy. */
export function acceptTransfer(db: Db, options: Base) {
  return change(db, options, "transferee", async (record, _tx, actingFor) => ({
    set: { controllerOrganizationId: actingFor, pendingTransfereeOrganizationId: null },
    action: "transfer_accepted",
    from: record.controllerOrganizationId,
    to: actingFor,
  }));
}

/** The offered organization declines: control stays where it was. */
export function declineTransfer(db: Db, options: Base) {
  return change(db, options, "transferee", async (record, _tx, actingFor) => ({
    set: { pendingTransfereeOrganizationId: null },
    action: "transfer_declined",
    from: record.controllerOrganizationId,
    to: actingFor,
  }));
}

/** The controller withdraws its pending offer. */
export function withdrawTransfer(db: Db, options: Base) {
  return change(db, options, "controller", async (record) => {
    if (record.pendingTransfereeOrganizationId === null) throw Conflict("No transfer of this record is pending.");
    return { set: { pendingTransfereeOrganizationId: null }, action: "transfer_withdrawn", from: record.controllerOrganizationId, to: record.pendingTransfereeOrganizationId };
  });
}

/** The controller pledges the record to a secured party (a warehouse lender): until released, it cannot be transferred or converted. */
export function pledgeRecord(db: Db, options: Base & Target) {
  return change(db, options, "controller", async (record, tx) => {
    assertActive(record, "be pledged");
    if (record.pledgeeOrganizationId !== null) throw Conflict("This record is already pledged.");
    if (record.pendingTransfereeOrganizationId !== null) throw Conflict("A transfer of this record is pending; withdraw it before pledging.");
    const to = await requireOtherOrganization(tx, record, options);
    return { set: { pledgeeOrganizationId: to }, action: "pledged", from: record.controllerOrganizationId, to };
  });
}

/** The secured party releases its pledge. */
export function releasePledge(db: Db, options: Base) {
  return change(db, options, "pledgee", async (record, _tx, actingFor) => ({
    set: { pledgeeOrganizationId: null },
    action: "released",
    from: actingFor,
    to: record.controllerOrganizationId,
  }));
}

/**
 * The controller converts the record to paper (a paper original is printed and signed, outside the
 * service): the electronic authoritative copy is retired for good; every rendering is a copy.
 */
export function convertToPaper(db: Db, options: Base) {
  return change(db, options, "controller", async (record) => {
    assertActive(record, "be converted again");
    if (record.pledgeeOrganizationId !== null) throw Conflict("This record is pledged; the secured party must release it first.");
    if (record.pendingTransfereeOrganizationId !== null) throw Conflict("A transfer of this record is pending; withdraw it first.");
    return { set: { status: "paper_out", paperOutAt: new Date() }, action: "paper_out", from: record.controllerOrganizationId, to: null };
  });
}
