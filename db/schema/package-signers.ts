import { index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";
import { signerAuthMethodEnum, type SignerProofMethod } from "./signer-auth-method";
import { signingPackages } from "./signing-packages";
import { users } from "./users";

export const signerRoleEnum = pgEnum("signer_role", ["signer", "co_signer"]);
export const signerStatusEnum = pgEnum("signer_status", ["pending", "notified", "viewed", "signed", "declined"]);

/** A person who signs a package. Signers with the same routing order sign in parallel. */
export const packageSigners = pgTable(
  "package_signers",
  {
    id: idColumn(),
    packageId: uuid("package_id")
      .notNull()
      .references(() => signingPackages.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    role: signerRoleEnum("role").notNull().default("signer"),
    routingOrder: integer("routing_order").notNull().default(1),
    status: signerStatusEnum("status").notNull().default("pending"),
    notifiedAt: timestampTz("notified_at"),
    viewedAt: timestampTz("viewed_at"),
    signedAt: timestampTz("signed_at"),
    declinedAt: timestampTz("declined_at"),
    declineReason: text("decline_reason"),
    /** This signer's proof of identity; null follows the package's `signer_auth_method`. */
    authMethod: signerAuthMethodEnum("auth_method").$type<SignerProofMethod>(),
    /** The access code the lender gave the signer out of band (scrypt hash); never returned. */
    accessCodeHash: text("access_code_hash"),
    /** E.164 mobile number: for `sms_code`, and for texts when `smsConsentAt` is set. */
    phone: text("phone"),
    /**
     * The manager's attestation that the signer agreed to receive text messages at `phone` (who and
     * when); cleared when the number changes. Without it no invitation, "your turn" or reminder is texted.
     */
    smsConsentAt: timestampTz("sms_consent_at"),
    smsConsentByUserId: uuid("sms_consent_by_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The last proof of identity the signer passed, and how (named on the certificate). */
    authPassedAt: timestampTz("auth_passed_at"),
    authPassedMethod: signerAuthMethodEnum("auth_passed_method"),
    /** Wrong codes entered, all time (the manager's package page). */
    authFailures: integer("auth_failures").notNull().default(0),
    /**
     * Consent to sign electronically: one record, written by the browser's consent step and by
     * `/v1` (`consent: true` on an e-signature), read by the certificate of completion.
     */
    consentedAt: timestampTz("consented_at"),
    consentSource: text("consent_source", { enum: ["browser", "api"] }),
    /** The language of the signer's pages and emails, set by the manager; null follows the organization's default. */
    language: text("language", { enum: ["en", "es"] }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("package_signers_package_id_idx").on(t.packageId),
    index("package_signers_user_id_idx").on(t.userId),
    uniqueIndex("package_signers_package_email_key").on(t.packageId, sql`lower(${t.email})`),
    // The package list's search by signer name (`name ILIKE '%…%'`).
    index("package_signers_name_trgm_idx").using("gin", sql`${t.name} gin_trgm_ops`),
  ],
);

export type PackageSigner = typeof packageSigners.$inferSelect;
export type NewPackageSigner = typeof packageSigners.$inferInsert;
