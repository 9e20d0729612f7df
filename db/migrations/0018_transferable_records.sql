CREATE TYPE "public"."control_action" AS ENUM('established', 'transfer_offered', 'transfer_accepted', 'transfer_declined', 'transfer_withdrawn', 'pledged', 'released', 'paper_out');--> statement-breakpoint
CREATE TYPE "public"."transferable_record_status" AS ENUM('active', 'paper_out');--> statement-breakpoint
CREATE TABLE "transferable_control_log" (
	"id" uuid PRIMARY KEY NOT NULL,
	"record_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"action" "control_action" NOT NULL,
	"from_organization_id" integer,
	"to_organization_id" integer,
	"actor_user_id" uuid,
	"controller_organization_id" integer NOT NULL,
	"note" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transferable_records" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"authoritative_storage_key" text NOT NULL,
	"authoritative_sha256" text NOT NULL,
	"status" "transferable_record_status" DEFAULT 'active' NOT NULL,
	"controller_organization_id" integer NOT NULL,
	"pending_transferee_organization_id" integer,
	"pledgee_organization_id" integer,
	"log_head_hash" text NOT NULL,
	"log_length" integer NOT NULL,
	"established_at" timestamp with time zone NOT NULL,
	"paper_out_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "template_documents" ADD COLUMN "transferable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "package_documents" ADD COLUMN "transferable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transferable_control_log" ADD CONSTRAINT "transferable_control_log_record_id_transferable_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."transferable_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transferable_control_log" ADD CONSTRAINT "transferable_control_log_from_organization_id_organizations_id_fk" FOREIGN KEY ("from_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transferable_control_log" ADD CONSTRAINT "transferable_control_log_to_organization_id_organizations_id_fk" FOREIGN KEY ("to_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transferable_control_log" ADD CONSTRAINT "transferable_control_log_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transferable_control_log" ADD CONSTRAINT "transferable_control_log_controller_organization_id_organizations_id_fk" FOREIGN KEY ("controller_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transferable_records" ADD CONSTRAINT "transferable_records_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transferable_records" ADD CONSTRAINT "transferable_records_document_id_package_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."package_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transferable_records" ADD CONSTRAINT "transferable_records_controller_organization_id_organizations_id_fk" FOREIGN KEY ("controller_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transferable_records" ADD CONSTRAINT "transferable_records_pending_transferee_organization_id_organizations_id_fk" FOREIGN KEY ("pending_transferee_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transferable_records" ADD CONSTRAINT "transferable_records_pledgee_organization_id_organizations_id_fk" FOREIGN KEY ("pledgee_organization_id") REFERENCES "public"."organizations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "transferable_control_log_record_seq_key" ON "transferable_control_log" USING btree ("record_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "transferable_records_document_id_key" ON "transferable_records" USING btree ("document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "transferable_records_authoritative_sha256_key" ON "transferable_records" USING btree ("authoritative_sha256");--> statement-breakpoint
CREATE INDEX "transferable_records_controller_idx" ON "transferable_records" USING btree ("controller_organization_id");--> statement-breakpoint
CREATE INDEX "transferable_records_pending_transferee_idx" ON "transferable_records" USING btree ("pending_transferee_organization_id");--> statement-breakpoint
CREATE FUNCTION "transferable_control_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'transferable_control_log is append-only';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "transferable_control_log_append_only" BEFORE UPDATE OR DELETE ON "transferable_control_log" FOR EACH ROW EXECUTE FUNCTION "transferable_control_log_append_only"();
