ALTER TABLE "bank_items" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_items" ADD COLUMN "signer_id" uuid;--> statement-breakpoint
ALTER TABLE "bank_items" ADD CONSTRAINT "bank_items_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_items_signer_id_idx" ON "bank_items" USING btree ("signer_id");--> statement-breakpoint
ALTER TABLE "bank_items" ADD CONSTRAINT "bank_items_owner_check" CHECK ("bank_items"."user_id" is not null or "bank_items"."signer_id" is not null);