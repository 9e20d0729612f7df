CREATE TABLE "comment_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "comment_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"chattel_document_id" uuid NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bulk_send_items" (
	"organization_id" integer NOT NULL,
	"batch_id" uuid NOT NULL,
	"package_key" text NOT NULL,
	"package_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bulk_send_items_organization_id_batch_id_package_key_pk" PRIMARY KEY("organization_id","batch_id","package_key")
);
--> statement-breakpoint
ALTER TABLE "comment_events" ADD CONSTRAINT "comment_events_chattel_document_id_chattel_documents_id_fk" FOREIGN KEY ("chattel_document_id") REFERENCES "public"."chattel_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_send_items" ADD CONSTRAINT "bulk_send_items_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bulk_send_items" ADD CONSTRAINT "bulk_send_items_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_events_chattel_document_id_idx" ON "comment_events" USING btree ("chattel_document_id","id");