CREATE TABLE "bulk_send_items" (
	"organization_id" integer NOT NULL,
	"batch_id" uuid NOT NULL,
	"package_key" text NOT NULL,
	"package_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bulk_send_items_organization_id_batch_id_package_key_pk" PRIMARY KEY("organization_id","batch_id","package_key")
);
--> statement-breakpoint
ALTER TABLE "bulk_send_items" ADD CONSTRAINT "bulk_send_items_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_send_items" ADD CONSTRAINT "bulk_send_items_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE set null ON UPDATE no action;