CREATE TABLE "outreach_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vault_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"e_signature_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inbound_emails" (
	"id" uuid PRIMARY KEY NOT NULL,
	"inbound_event_id" uuid NOT NULL,
	"organization_id" integer,
	"outreach_message_id" uuid,
	"routing" text NOT NULL,
	"from" text,
	"to" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_emails_inbound_event_id_unique" UNIQUE("inbound_event_id")
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_package_id_signing_packages_id_fk";
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_actor_user_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "chattel_documents" ADD COLUMN "co_borrowers" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "chattel_documents" ADD COLUMN "dealer_contacts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_records" ADD COLUMN "field_versions" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "outreach_templates" ADD CONSTRAINT "outreach_templates_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vault_deliveries" ADD CONSTRAINT "vault_deliveries_e_signature_id_e_signatures_id_fk" FOREIGN KEY ("e_signature_id") REFERENCES "public"."e_signatures"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_emails" ADD CONSTRAINT "inbound_emails_inbound_event_id_inbound_events_id_fk" FOREIGN KEY ("inbound_event_id") REFERENCES "public"."inbound_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_emails" ADD CONSTRAINT "inbound_emails_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_emails" ADD CONSTRAINT "inbound_emails_outreach_message_id_outreach_messages_id_fk" FOREIGN KEY ("outreach_message_id") REFERENCES "public"."outreach_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "outreach_templates_organization_purpose_key" ON "outreach_templates" USING btree ("organization_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "vault_deliveries_e_signature_attempt_key" ON "vault_deliveries" USING btree ("e_signature_id","attempt");--> statement-breakpoint
CREATE INDEX "vault_deliveries_created_at_idx" ON "vault_deliveries" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "inbound_emails_organization_id_idx" ON "inbound_emails" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "inbound_emails_outreach_message_id_idx" ON "inbound_emails" USING btree ("outreach_message_id");