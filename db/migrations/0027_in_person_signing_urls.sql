CREATE TABLE "in_person_signing_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"signer_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"host_user_id" uuid,
	"host_name" text NOT NULL,
	"host_email" text NOT NULL,
	"id_type" text NOT NULL,
	"id_issuer" text NOT NULL,
	"id_last_four" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"session_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "in_person_signing_tokens" ADD CONSTRAINT "in_person_signing_tokens_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "in_person_signing_tokens" ADD CONSTRAINT "in_person_signing_tokens_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "in_person_signing_tokens" ADD CONSTRAINT "in_person_signing_tokens_host_user_id_users_id_fk" FOREIGN KEY ("host_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "in_person_signing_tokens" ADD CONSTRAINT "in_person_signing_tokens_session_id_signer_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."signer_sessions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "in_person_signing_tokens_token_hash_key" ON "in_person_signing_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "in_person_signing_tokens_signer_id_idx" ON "in_person_signing_tokens" USING btree ("signer_id");