CREATE TYPE "public"."scanback_scan_status" AS ENUM('queued', 'processing', 'done', 'failed');--> statement-breakpoint
CREATE TABLE "scanback_scan_files" (
	"id" uuid PRIMARY KEY NOT NULL,
	"scan_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"storage_key" text NOT NULL,
	"page_count" integer NOT NULL,
	"first_index" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scanback_scans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"organization_id" integer NOT NULL,
	"upload_id" uuid NOT NULL,
	"status" "scanback_scan_status" DEFAULT 'queued' NOT NULL,
	"total_pages" integer NOT NULL,
	"processed_pages" integer DEFAULT 0 NOT NULL,
	"chunk_size" integer NOT NULL,
	"error" text,
	"uploaded_by_user_id" uuid,
	"audit" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "fairness_key" text;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD COLUMN "scan_id" uuid;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD COLUMN "scan_index" integer;--> statement-breakpoint
ALTER TABLE "scanback_scan_files" ADD CONSTRAINT "scanback_scan_files_scan_id_scanback_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."scanback_scans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scanback_scans" ADD CONSTRAINT "scanback_scans_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scanback_scans" ADD CONSTRAINT "scanback_scans_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scanback_scan_files_scan_position_key" ON "scanback_scan_files" USING btree ("scan_id","position");--> statement-breakpoint
CREATE INDEX "scanback_scan_files_storage_key_idx" ON "scanback_scan_files" USING btree ("storage_key");--> statement-breakpoint
CREATE INDEX "scanback_scans_package_id_idx" ON "scanback_scans" USING btree ("package_id","created_at");--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD CONSTRAINT "scanback_pages_scan_id_scanback_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."scanback_scans"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scanback_pages_scan_page_key" ON "scanback_pages" USING btree ("scan_id","scan_index");