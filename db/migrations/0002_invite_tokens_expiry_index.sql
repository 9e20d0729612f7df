CREATE TABLE "user_invite_tokens" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_invite_tokens" ADD CONSTRAINT "user_invite_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_invite_tokens" ADD CONSTRAINT "user_invite_tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_invite_tokens_token_hash_key" ON "user_invite_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "user_invite_tokens_user_id_idx" ON "user_invite_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "signing_packages_open_expires_at_idx" ON "signing_packages" USING btree ("expires_at") WHERE "signing_packages"."status" in ('sent', 'in_progress');