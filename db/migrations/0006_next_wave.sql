CREATE TYPE "public"."document_execution_status" AS ENUM('pending', 'esigned', 'scan_uploaded', 'accepted', 'rejected', 'acknowledged');--> statement-breakpoint
CREATE TYPE "public"."execution_mode" AS ENUM('esign', 'wet_sign', 'notarize', 'review_only');--> statement-breakpoint
CREATE TYPE "public"."scanback_page_outcome" AS ENUM('matched', 'duplicate', 'other_package', 'unreadable', 'assigned');--> statement-breakpoint
CREATE TYPE "public"."signer_auth_method" AS ENUM('link', 'email_code', 'access_code', 'sms_code', 'account');--> statement-breakpoint
CREATE TABLE "organization_logos" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage" text NOT NULL,
	"storage_key" text,
	"content" "bytea",
	"uploaded_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_scans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"content" "bytea" NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"page_count" integer NOT NULL,
	"uploaded_by_user_id" uuid,
	"reviewed_by_user_id" uuid,
	"reviewed_at" timestamp with time zone,
	"reject_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scanback_pages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"upload_id" uuid NOT NULL,
	"source_name" text NOT NULL,
	"source_page" integer NOT NULL,
	"image" "bytea" NOT NULL,
	"content_type" text NOT NULL,
	"outcome" "scanback_page_outcome" NOT NULL,
	"document_id" uuid,
	"page_number" integer,
	"uploaded_by_user_id" uuid,
	"attached_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signer_access_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"renew_requested_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signer_auth_challenges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"method" "signer_auth_method" NOT NULL,
	"code_hmac" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signer_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"session_hash" text NOT NULL,
	"package_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"link_id" uuid NOT NULL,
	"auth_passed_at" timestamp with time zone,
	"auth_method" "signer_auth_method",
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"ip_address" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "e_signatures" ALTER COLUMN "auth_user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "template_documents" ADD COLUMN "execution_mode" "execution_mode" DEFAULT 'esign' NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "signer_auth_method" "signer_auth_method" DEFAULT 'email_code' NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD COLUMN "closing_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD COLUMN "closing_place" text;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD COLUMN "settlement_agent" text;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD COLUMN "esign_opens_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD COLUMN "signer_auth_method" "signer_auth_method" DEFAULT 'email_code' NOT NULL;--> statement-breakpoint
ALTER TABLE "package_signers" ADD COLUMN "auth_method" "signer_auth_method";--> statement-breakpoint
ALTER TABLE "package_signers" ADD COLUMN "access_code_hash" text;--> statement-breakpoint
ALTER TABLE "package_signers" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "package_signers" ADD COLUMN "auth_passed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_signers" ADD COLUMN "auth_passed_method" "signer_auth_method";--> statement-breakpoint
ALTER TABLE "package_signers" ADD COLUMN "auth_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "package_signers" ADD COLUMN "consented_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_signers" ADD COLUMN "consent_source" text;--> statement-breakpoint
ALTER TABLE "package_documents" ADD COLUMN "execution_mode" "execution_mode" DEFAULT 'esign' NOT NULL;--> statement-breakpoint
ALTER TABLE "package_documents" ADD COLUMN "execution_status" "document_execution_status" DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox_emails" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "organization_logos" ADD CONSTRAINT "organization_logos_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_logos" ADD CONSTRAINT "organization_logos_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_scans" ADD CONSTRAINT "document_scans_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_scans" ADD CONSTRAINT "document_scans_document_id_package_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."package_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_scans" ADD CONSTRAINT "document_scans_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_scans" ADD CONSTRAINT "document_scans_reviewed_by_user_id_users_id_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD CONSTRAINT "scanback_pages_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD CONSTRAINT "scanback_pages_document_id_package_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."package_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD CONSTRAINT "scanback_pages_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_access_links" ADD CONSTRAINT "signer_access_links_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_access_links" ADD CONSTRAINT "signer_access_links_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_auth_challenges" ADD CONSTRAINT "signer_auth_challenges_session_id_signer_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."signer_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_auth_challenges" ADD CONSTRAINT "signer_auth_challenges_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_sessions" ADD CONSTRAINT "signer_sessions_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_sessions" ADD CONSTRAINT "signer_sessions_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signer_sessions" ADD CONSTRAINT "signer_sessions_link_id_signer_access_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."signer_access_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_scans_document_id_key" ON "document_scans" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "document_scans_package_id_idx" ON "document_scans" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "scanback_pages_package_id_idx" ON "scanback_pages" USING btree ("package_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signer_access_links_token_hash_key" ON "signer_access_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "signer_access_links_signer_id_idx" ON "signer_access_links" USING btree ("signer_id");--> statement-breakpoint
CREATE INDEX "signer_auth_challenges_session_id_idx" ON "signer_auth_challenges" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "signer_sessions_session_hash_key" ON "signer_sessions" USING btree ("session_hash");--> statement-breakpoint
CREATE INDEX "signer_sessions_signer_id_idx" ON "signer_sessions" USING btree ("signer_id");