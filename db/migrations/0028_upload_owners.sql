-- An upload belongs to exactly one owner: a user (as before), one signer of one package (that
-- signer's session from an emailed link or an embedded signing), or one settlement agent's link (the
-- agent's session). Only that owner may verify or attach it.
ALTER TABLE "uploads" ALTER COLUMN "created_by_user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "signer_id" uuid;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "agent_link_id" uuid;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_agent_link_id_settlement_agent_links_id_fk" FOREIGN KEY ("agent_link_id") REFERENCES "public"."settlement_agent_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_one_owner_check" CHECK (num_nonnulls("uploads"."created_by_user_id", "uploads"."signer_id", "uploads"."agent_link_id") = 1);
