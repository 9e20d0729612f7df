import { index, integer, jsonb, pgTable, text, uuid, boolean } from "drizzle-orm/pg-core";
import { createdAt, idColumn, updatedAt } from "./columns";
import { executionModeEnum } from "./execution-modes";
import { organizations } from "./organizations";
import { signerAuthMethodEnum, type SignerProofMethod } from "./signer-auth-method";
import { users } from "./users";

export type TemplateRole = {
  key: string;
  label: string;
  role: "signer" | "co_signer";
  routingOrder: number;
  /** How the signer taking the role proves who they are; absent follows the template's `signer_auth_method`. */
  authMethod?: SignerProofMethod;
  /** Documents asked of the signer taking the role (docs/attachments.md), added to any the package gives that signer. */
  attachments?: { name: string; description?: string | null; required: boolean }[];
};

/** A reusable package: documents plus signer roles, copied into a package created from it. */
export const templates = pgTable(
  "templates",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description"),
    roles: jsonb("roles").$type<TemplateRole[]>().notNull().default([]),
    /** How signers of packages created from the template prove who they are. */
    signerAuthMethod: signerAuthMethodEnum("signer_auth_method").$type<SignerProofMethod>().notNull().default("email_code"),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("templates_organization_id_idx").on(t.organizationId)],
);

export const templateDocuments = pgTable(
  "template_documents",
  {
    id: idColumn(),
    templateId: uuid("template_id")
      .notNull()
      .references(() => templates.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    storageKey: text("storage_key").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    pageCount: integer("page_count").notNull(),
    position: integer("position").notNull().default(0),
    executionMode: executionModeEnum("execution_mode").notNull().default("esign"),
    /** Packages created from the template start with this document marked as a transferable record. */
    transferable: boolean("transferable").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index("template_documents_template_id_idx").on(t.templateId)],
);

export type Template = typeof templates.$inferSelect;
export type NewTemplate = typeof templates.$inferInsert;
export type TemplateDocument = typeof templateDocuments.$inferSelect;
