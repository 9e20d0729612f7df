import { sql } from "drizzle-orm";
import { index, integer, pgEnum, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { companies } from "./companies";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { flows } from "./flows";
import { locations } from "./locations";
import { organizations } from "./organizations";
import { signerAuthMethodEnum, type SignerProofMethod } from "./signer-auth-method";
import { templates } from "./templates";
import { users } from "./users";

/** Package states (docs/signing-api.md): draft → sent → in_progress → completed; cancelled, declined, expired are terminal. */
export const signingStatusEnum = pgEnum("signing_status", [
  "draft",
  "sent",
  "in_progress",
  "completed",
  "cancelled",
  "declined",
  "expired",
]);

export const signingPackages = pgTable(
  "signing_packages",
  {
    id: idColumn(),
    organizationId: integer("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "restrict" }),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "restrict" }),
    locationId: integer("location_id")
      .notNull()
      .references(() => locations.id, { onDelete: "restrict" }),
    title: text("title").notNull(),
    status: signingStatusEnum("status").notNull().default("draft"),
    templateId: uuid("template_id").references(() => templates.id, { onDelete: "set null" }),
    flowId: uuid("flow_id").references(() => flows.id, { onDelete: "set null" }),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    message: text("message"),
    sentAt: timestampTz("sent_at"),
    completedAt: timestampTz("completed_at"),
    cancelledAt: timestampTz("cancelled_at"),
    cancelReason: text("cancel_reason"),
    declinedAt: timestampTz("declined_at"),
    expiresAt: timestampTz("expires_at"),
    /** Hybrid closings: the closing appointment, and the moment before which e-signing is not open. */
    closingAt: timestampTz("closing_at"),
    closingPlace: text("closing_place"),
    settlementAgent: text("settlement_agent"),
    esignOpensAt: timestampTz("esign_opens_at"),
    /** How signers prove who they are unless a signer overrides it. */
    signerAuthMethod: signerAuthMethodEnum("signer_auth_method").$type<SignerProofMethod>().notNull().default("email_code"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("signing_packages_organization_id_idx").on(t.organizationId, t.id),
    index("signing_packages_location_id_idx").on(t.locationId),
    index("signing_packages_status_idx").on(t.status),
    // The expiry sweep's lookup: open packages by deadline.
    index("signing_packages_open_expires_at_idx").on(t.expiresAt).where(sql`${t.status} in ('sent', 'in_progress')`),
    // The package list's text search (`title ILIKE '%…%'`): a trigram index answers it without reading every package.
    index("signing_packages_title_trgm_idx").using("gin", sql`${t.title} gin_trgm_ops`),
  ],
);

export type SigningPackage = typeof signingPackages.$inferSelect;
export type NewSigningPackage = typeof signingPackages.$inferInsert;
export type SigningStatus = (typeof signingStatusEnum.enumValues)[number];
