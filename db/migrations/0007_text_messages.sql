CREATE TABLE "sms_messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"package_id" uuid,
	"signer_id" uuid,
	"to" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"skip_reason" text,
	"provider_sid" text,
	"provider_status" text,
	"error_code" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_opt_outs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"phone" text NOT NULL,
	"keyword" text NOT NULL,
	"stopped_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "package_signers" ADD COLUMN "sms_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_signers" ADD COLUMN "sms_consent_by_user_id" uuid;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_opt_outs" ADD CONSTRAINT "sms_opt_outs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sms_messages_provider_sid_key" ON "sms_messages" USING btree ("provider_sid");--> statement-breakpoint
CREATE INDEX "sms_messages_signer_id_idx" ON "sms_messages" USING btree ("signer_id");--> statement-breakpoint
CREATE INDEX "sms_messages_organization_to_idx" ON "sms_messages" USING btree ("organization_id","to");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_opt_outs_organization_phone_key" ON "sms_opt_outs" USING btree ("organization_id","phone");--> statement-breakpoint
ALTER TABLE "package_signers" ADD CONSTRAINT "package_signers_sms_consent_by_user_id_users_id_fk" FOREIGN KEY ("sms_consent_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;