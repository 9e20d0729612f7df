import { index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { organizations } from "./organizations";
import { packageDocuments } from "./package-documents";
import { signingPackages } from "./signing-packages";
import { users } from "./users";

export const transferableRecordStatusEnum = pgEnum("transferable_record_status", ["active", "paper_out"]);

export const controlActionEnum = pgEnum("control_action", [
  "established",
  "transfer_offered",
  "transfer_accepted",
  "transfer_declined",
  "transfer_withdrawn",
  "pledged",
  "released",
  "paper_out",
]);

/**
 * A transferable record (UCC 9-105 electronic chattel paper, ESIGN § 201 / UETA § 16 transferable
 * record): one per package document marked transferable, made when the package is sealed. The sealed
 * PDF is the single authoritative copy (`authoritativeSha256`, the object `authoritativeStorageKey`,
 * content-addressed and never rewritten); `controllerOrganizationId` holds control. At most one
 * transfer is pending (`pendingTransfereeOrganizationId`); a pledge names the secured party.
 * Every change appends to `transferable_control_log` in the same transaction.
 */
export const transferableRecords = pgTable(
  "transferable_records",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id),
    documentId: uuid("document_id")
      .notNull()
      .references(() => packageDocuments.id),
    authoritativeStorageKey: text("authoritative_storage_key").notNull(),
    authoritativeSha256: text("authoritative_sha256").notNull(),
    status: transferableRecordStatusEnum("status").notNull().default("active"),
    controllerOrganizationId: integer("controller_organization_id")
      .notNull()
      .references(() => organizations.id),
    pendingTransfereeOrganizationId: integer("pending_transferee_organization_id").references(() => organizations.id),
    pledgeeOrganizationId: integer("pledgee_organization_id").references(() => organizations.id),
    /** The control log's last hash and length (the chain's head, for appending and for /verify). */
    logHeadHash: text("log_head_hash").notNull(),
    logLength: integer("log_length").notNull(),
    establishedAt: timestampTz("established_at").notNull(),
    paperOutAt: timestampTz("paper_out_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("transferable_records_document_id_key").on(t.documentId),
    uniqueIndex("transferable_records_authoritative_sha256_key").on(t.authoritativeSha256),
    index("transferable_records_controller_idx").on(t.controllerOrganizationId),
    index("transferable_records_pending_transferee_idx").on(t.pendingTransfereeOrganizationId),
  ],
);

/**
 * The control log: append-only (a trigger refuses UPDATE and DELETE), one hash chain per record whose
 * first entry links to the package's anchored audit head (`package_seals.audit_head_hash`); every entry
 * is also an audit entry of the package, which carries its hash.
 */
export const transferableControlLog = pgTable(
  "transferable_control_log",
  {
    id: idColumn(),
    recordId: uuid("record_id")
      .notNull()
      .references(() => transferableRecords.id),
    seq: integer("seq").notNull(),
    action: controlActionEnum("action").notNull(),
    /** Who held control before, and who holds (or is offered, or is pledged) it after. */
    fromOrganizationId: integer("from_organization_id").references(() => organizations.id),
    toOrganizationId: integer("to_organization_id").references(() => organizations.id),
    actorUserId: uuid("actor_user_id").references(() => users.id),
    /** The controller once this entry applies. */
    controllerOrganizationId: integer("controller_organization_id")
      .notNull()
      .references(() => organizations.id),
    note: text("note"),
    prevHash: text("prev_hash").notNull(),
    hash: text("hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("transferable_control_log_record_seq_key").on(t.recordId, t.seq)],
);

export type TransferableRecord = typeof transferableRecords.$inferSelect;
export type ControlLogEntry = typeof transferableControlLog.$inferSelect;
export type ControlAction = (typeof controlActionEnum.enumValues)[number];
