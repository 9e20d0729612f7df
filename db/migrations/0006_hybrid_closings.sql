CREATE TYPE "public"."document_execution_status" AS ENUM('pending', 'esigned', 'scan_uploaded', 'accepted', 'rejected', 'acknowledged');--> statement-breakpoint
CREATE TYPE "public"."execution_mode" AS ENUM('esign', 'wet_sign', 'notarize', 'review_only');--> statement-breakpoint
CREATE TYPE "public"."scanback_page_outcome" AS ENUM('matched', 'duplicate', 'other_package', 'unreadable', 'assigned');--> statement-breakpoint
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
ALTER TABLE "template_documents" ADD COLUMN "execution_mode" "execution_mode" DEFAULT 'esign' NOT NULL;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD COLUMN "closing_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD COLUMN "closing_place" text;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD COLUMN "settlement_agent" text;--> statement-breakpoint
ALTER TABLE "signing_packages" ADD COLUMN "esign_opens_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_documents" ADD COLUMN "execution_mode" "execution_mode" DEFAULT 'esign' NOT NULL;--> statement-breakpoint
ALTER TABLE "package_documents" ADD COLUMN "execution_status" "document_execution_status" DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "document_scans" ADD CONSTRAINT "document_scans_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_scans" ADD CONSTRAINT "document_scans_document_id_package_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."package_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_scans" ADD CONSTRAINT "document_scans_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_scans" ADD CONSTRAINT "document_scans_reviewed_by_user_id_users_id_fk" FOREIGN KEY ("reviewed_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD CONSTRAINT "scanback_pages_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD CONSTRAINT "scanback_pages_document_id_package_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."package_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD CONSTRAINT "scanback_pages_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_scans_document_id_key" ON "document_scans" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "document_scans_package_id_idx" ON "document_scans" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "scanback_pages_package_id_idx" ON "scanback_pages" USING btree ("package_id","created_at");