CREATE TYPE "public"."auth_provider" AS ENUM('local', 'clerk');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('signer', 'manager', 'org_admin', 'admin');--> statement-breakpoint
CREATE TYPE "public"."signing_status" AS ENUM('draft', 'sent', 'in_progress', 'completed', 'cancelled', 'declined', 'expired');--> statement-breakpoint
CREATE TYPE "public"."signer_role" AS ENUM('signer', 'co_signer');--> statement-breakpoint
CREATE TYPE "public"."signer_status" AS ENUM('pending', 'notified', 'viewed', 'signed', 'declined');--> statement-breakpoint
CREATE TYPE "public"."signature_request_status" AS ENUM('pending', 'signed', 'declined');--> statement-breakpoint
CREATE TYPE "public"."signature_kind" AS ENUM('drawn', 'typed');--> statement-breakpoint
CREATE TYPE "public"."chattel_document_status" AS ENUM('requested', 'received', 'under_review', 'accepted', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."chattel_document_type" AS ENUM('retail_installment_contract', 'certificate_of_title', 'manufacturer_certificate_of_origin', 'bill_of_sale', 'lien_release', 'other');--> statement-breakpoint
CREATE TYPE "public"."outreach_recipient_kind" AS ENUM('borrower', 'co_borrower', 'dealer_contact');--> statement-breakpoint
CREATE TYPE "public"."outreach_status" AS ENUM('queued', 'sent', 'failed', 'replied');--> statement-breakpoint
CREATE TYPE "public"."billing_status" AS ENUM('active', 'trialing', 'past_due', 'canceled', 'incomplete', 'incomplete_expired', 'unpaid', 'paused');--> statement-breakpoint
CREATE TYPE "public"."plan_tier" AS ENUM('free', 'starter', 'pro', 'enterprise');--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"auth_provider" "auth_provider" DEFAULT 'local' NOT NULL,
	"auth_subject" text,
	"password_hash" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"deactivated_at" timestamp with time zone,
	"last_sign_in_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "organizations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "companies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "locations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "locations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organization_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"name" text NOT NULL,
	"address_line1" text,
	"city" text,
	"region" text,
	"postal_code" text,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"role" "role" NOT NULL,
	"organization_id" integer,
	"company_id" integer,
	"location_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_assignment_key" UNIQUE NULLS NOT DISTINCT("user_id","role","organization_id","company_id","location_id"),
	CONSTRAINT "memberships_scope_check" CHECK (("memberships"."role" = 'admin' and "memberships"."organization_id" is null and "memberships"."company_id" is null and "memberships"."location_id" is null)
        or ("memberships"."role" <> 'admin' and "memberships"."organization_id" is not null and ("memberships"."location_id" is null or "memberships"."company_id" is not null)))
);
--> statement-breakpoint
CREATE TABLE "template_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"template_id" uuid NOT NULL,
	"name" text NOT NULL,
	"content" "bytea" NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"page_count" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "flows" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"name" text NOT NULL,
	"steps" jsonb NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_packages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"title" text NOT NULL,
	"status" "signing_status" DEFAULT 'draft' NOT NULL,
	"template_id" uuid,
	"flow_id" uuid,
	"created_by_user_id" uuid,
	"message" text,
	"sent_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"cancel_reason" text,
	"declined_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_signers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"user_id" uuid,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"role" "signer_role" DEFAULT 'signer' NOT NULL,
	"routing_order" integer DEFAULT 1 NOT NULL,
	"status" "signer_status" DEFAULT 'pending' NOT NULL,
	"notified_at" timestamp with time zone,
	"viewed_at" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"declined_at" timestamp with time zone,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "package_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"name" text NOT NULL,
	"content_type" text DEFAULT 'application/pdf' NOT NULL,
	"content" "bytea" NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"page_count" integer NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signature_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"required" boolean DEFAULT true NOT NULL,
	"status" "signature_request_status" DEFAULT 'pending' NOT NULL,
	"signed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "e_signatures" (
	"id" uuid PRIMARY KEY NOT NULL,
	"signature_request_id" uuid NOT NULL,
	"package_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"auth_user_id" uuid NOT NULL,
	"kind" "signature_kind" NOT NULL,
	"image_data_url" text,
	"typed_text" text,
	"typed_font" text,
	"consent_given" boolean NOT NULL,
	"document_sha256" text NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chattel_document_files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"chattel_document_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"storage" text NOT NULL,
	"storage_key" text,
	"content" "bytea",
	"uploaded_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chattel_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"company_id" integer,
	"location_id" integer,
	"signing_package_id" uuid,
	"type" "chattel_document_type" NOT NULL,
	"status" "chattel_document_status" DEFAULT 'requested' NOT NULL,
	"title" text NOT NULL,
	"borrower_name" text,
	"borrower_email" text,
	"collateral_make" text,
	"collateral_model" text,
	"collateral_year" integer,
	"collateral_serial" text,
	"notes" text,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"chattel_document_id" uuid NOT NULL,
	"parent_id" uuid,
	"author_user_id" uuid NOT NULL,
	"body" text NOT NULL,
	"mentioned_user_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"edited_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox_emails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"from" text NOT NULL,
	"reply_to" text,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outreach_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"chattel_document_id" uuid,
	"signing_package_id" uuid,
	"recipient_kind" "outreach_recipient_kind" NOT NULL,
	"recipient_name" text,
	"recipient_email" text NOT NULL,
	"purpose" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"status" "outreach_status" DEFAULT 'queued' NOT NULL,
	"reply_token" text NOT NULL,
	"sent_at" timestamp with time zone,
	"replied_at" timestamp with time zone,
	"last_error" text,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_records" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"status" "billing_status" DEFAULT 'active' NOT NULL,
	"plan_tier" "plan_tier" DEFAULT 'free' NOT NULL,
	"current_period_end" timestamp with time zone,
	"stripe_customer_id" text,
	"stripe_subscription_id" text,
	"last_event_id" text,
	"last_event_created_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_items" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"item_id" text NOT NULL,
	"institution_id" text,
	"institution_name" text,
	"access_token_ciphertext" text NOT NULL,
	"health" text DEFAULT 'healthy' NOT NULL,
	"last_webhook_code" text,
	"last_webhook_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"provider_event_id" text NOT NULL,
	"type" text NOT NULL,
	"organization_id" integer,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'received' NOT NULL,
	"processed_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 8 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"idempotency_key" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"key_hash" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organization_id" integer,
	"package_id" uuid,
	"actor_user_id" uuid,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"ip_address" text,
	"before" jsonb,
	"after" jsonb,
	"prev_hash" text,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_documents" ADD CONSTRAINT "template_documents_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD CONSTRAINT "signing_packages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD CONSTRAINT "signing_packages_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD CONSTRAINT "signing_packages_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD CONSTRAINT "signing_packages_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD CONSTRAINT "signing_packages_flow_id_flows_id_fk" FOREIGN KEY ("flow_id") REFERENCES "public"."flows"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD CONSTRAINT "signing_packages_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_signers" ADD CONSTRAINT "package_signers_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_signers" ADD CONSTRAINT "package_signers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_documents" ADD CONSTRAINT "package_documents_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_document_id_package_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."package_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signature_requests" ADD CONSTRAINT "signature_requests_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "e_signatures" ADD CONSTRAINT "e_signatures_signature_request_id_signature_requests_id_fk" FOREIGN KEY ("signature_request_id") REFERENCES "public"."signature_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "e_signatures" ADD CONSTRAINT "e_signatures_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "e_signatures" ADD CONSTRAINT "e_signatures_document_id_package_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."package_documents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "e_signatures" ADD CONSTRAINT "e_signatures_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "e_signatures" ADD CONSTRAINT "e_signatures_auth_user_id_users_id_fk" FOREIGN KEY ("auth_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chattel_document_files" ADD CONSTRAINT "chattel_document_files_chattel_document_id_chattel_documents_id_fk" FOREIGN KEY ("chattel_document_id") REFERENCES "public"."chattel_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chattel_document_files" ADD CONSTRAINT "chattel_document_files_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chattel_documents" ADD CONSTRAINT "chattel_documents_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chattel_documents" ADD CONSTRAINT "chattel_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chattel_documents" ADD CONSTRAINT "chattel_documents_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chattel_documents" ADD CONSTRAINT "chattel_documents_signing_package_id_signing_packages_id_fk" FOREIGN KEY ("signing_package_id") REFERENCES "public"."signing_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chattel_documents" ADD CONSTRAINT "chattel_documents_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_chattel_document_id_chattel_documents_id_fk" FOREIGN KEY ("chattel_document_id") REFERENCES "public"."chattel_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_parent_id_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outreach_messages" ADD CONSTRAINT "outreach_messages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outreach_messages" ADD CONSTRAINT "outreach_messages_chattel_document_id_chattel_documents_id_fk" FOREIGN KEY ("chattel_document_id") REFERENCES "public"."chattel_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outreach_messages" ADD CONSTRAINT "outreach_messages_signing_package_id_signing_packages_id_fk" FOREIGN KEY ("signing_package_id") REFERENCES "public"."signing_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outreach_messages" ADD CONSTRAINT "outreach_messages_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_records" ADD CONSTRAINT "billing_records_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_items" ADD CONSTRAINT "bank_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_events" ADD CONSTRAINT "inbound_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_auth_subject_key" ON "users" USING btree ("auth_subject");--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_slug_key" ON "organizations" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "companies_organization_id_idx" ON "companies" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "locations_company_id_idx" ON "locations" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "locations_organization_id_idx" ON "locations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "memberships_user_id_idx" ON "memberships" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "memberships_organization_id_idx" ON "memberships" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "template_documents_template_id_idx" ON "template_documents" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "templates_organization_id_idx" ON "templates" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "flows_organization_id_idx" ON "flows" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "signing_packages_organization_id_idx" ON "signing_packages" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "signing_packages_location_id_idx" ON "signing_packages" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "signing_packages_status_idx" ON "signing_packages" USING btree ("status");--> statement-breakpoint
CREATE INDEX "package_signers_package_id_idx" ON "package_signers" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "package_signers_user_id_idx" ON "package_signers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "package_signers_package_email_key" ON "package_signers" USING btree ("package_id",lower("email"));--> statement-breakpoint
CREATE INDEX "package_documents_package_id_idx" ON "package_documents" USING btree ("package_id");--> statement-breakpoint
CREATE UNIQUE INDEX "signature_requests_document_signer_key" ON "signature_requests" USING btree ("document_id","signer_id");--> statement-breakpoint
CREATE INDEX "signature_requests_package_id_idx" ON "signature_requests" USING btree ("package_id");--> statement-breakpoint
CREATE UNIQUE INDEX "e_signatures_signature_request_id_key" ON "e_signatures" USING btree ("signature_request_id");--> statement-breakpoint
CREATE UNIQUE INDEX "e_signatures_idempotency_key" ON "e_signatures" USING btree ("auth_user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "e_signatures_package_id_idx" ON "e_signatures" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "e_signatures_auth_user_id_idx" ON "e_signatures" USING btree ("auth_user_id");--> statement-breakpoint
CREATE INDEX "chattel_document_files_document_id_idx" ON "chattel_document_files" USING btree ("chattel_document_id");--> statement-breakpoint
CREATE INDEX "chattel_documents_organization_id_idx" ON "chattel_documents" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "chattel_documents_serial_idx" ON "chattel_documents" USING btree ("collateral_serial");--> statement-breakpoint
CREATE INDEX "comments_chattel_document_id_idx" ON "comments" USING btree ("chattel_document_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "outreach_messages_reply_token_key" ON "outreach_messages" USING btree ("reply_token");--> statement-breakpoint
CREATE INDEX "outreach_messages_chattel_document_id_idx" ON "outreach_messages" USING btree ("chattel_document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "billing_records_stripe_customer_id_key" ON "billing_records" USING btree ("stripe_customer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_items_item_id_key" ON "bank_items" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "bank_items_user_id_idx" ON "bank_items" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_events_source_provider_event_id_key" ON "inbound_events" USING btree ("source","provider_event_id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("status","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_idempotency_key" ON "jobs" USING btree ("name","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_id_idx" ON "api_keys" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "audit_log_package_id_idx" ON "audit_log" USING btree ("package_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_organization_id_idx" ON "audit_log" USING btree ("organization_id");