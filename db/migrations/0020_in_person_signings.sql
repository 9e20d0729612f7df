ALTER TYPE "public"."signer_auth_method" ADD VALUE 'in_person';--> statement-breakpoint
CREATE TABLE "in_person_signings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"host_user_id" uuid,
	"host_name" text NOT NULL,
	"host_email" text NOT NULL,
	"id_type" text NOT NULL,
	"id_issuer" text NOT NULL,
	"id_last_four" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "in_person_signings" ADD CONSTRAINT "in_person_signings_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "in_person_signings" ADD CONSTRAINT "in_person_signings_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "in_person_signings" ADD CONSTRAINT "in_person_signings_session_id_signer_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."signer_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "in_person_signings" ADD CONSTRAINT "in_person_signings_host_user_id_users_id_fk" FOREIGN KEY ("host_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "in_person_signings_package_id_idx" ON "in_person_signings" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "in_person_signings_session_id_idx" ON "in_person_signings" USING btree ("session_id");