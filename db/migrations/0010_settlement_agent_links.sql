CREATE TABLE "settlement_agent_links" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"agent_name" text NOT NULL,
	"agent_email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"session_hash" text,
	"session_expires_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"issued_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settlement_agent_links" ADD CONSTRAINT "settlement_agent_links_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_agent_links" ADD CONSTRAINT "settlement_agent_links_issued_by_user_id_users_id_fk" FOREIGN KEY ("issued_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_agent_links_token_hash_key" ON "settlement_agent_links" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_agent_links_session_hash_key" ON "settlement_agent_links" USING btree ("session_hash");--> statement-breakpoint
CREATE INDEX "settlement_agent_links_package_id_idx" ON "settlement_agent_links" USING btree ("package_id","created_at");