CREATE TYPE "public"."field_type" AS ENUM('signature', 'initials', 'date_signed', 'full_name', 'text', 'checkbox');--> statement-breakpoint
CREATE TYPE "public"."seal_status" AS ENUM('pending', 'sealed', 'failed');--> statement-breakpoint
CREATE TABLE "document_fields" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid,
	"document_id" uuid,
	"signer_id" uuid,
	"template_id" uuid,
	"template_document_id" uuid,
	"template_role_key" text,
	"type" "field_type" NOT NULL,
	"page" integer NOT NULL,
	"x" double precision NOT NULL,
	"y" double precision NOT NULL,
	"width" double precision NOT NULL,
	"height" double precision NOT NULL,
	"required" boolean DEFAULT true NOT NULL,
	"label" text,
	"value" text,
	"filled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_fields_owner_check" CHECK (("document_fields"."package_id" is not null and "document_fields"."document_id" is not null and "document_fields"."signer_id" is not null and "document_fields"."template_id" is null)
        or ("document_fields"."template_id" is not null and "document_fields"."template_document_id" is not null and "document_fields"."template_role_key" is not null and "document_fields"."package_id" is null)),
	CONSTRAINT "document_fields_geometry_check" CHECK ("document_fields"."page" >= 1 and "document_fields"."width" > 0 and "document_fields"."height" > 0 and "document_fields"."x" >= 0 and "document_fields"."y" >= 0)
);
--> statement-breakpoint
CREATE TABLE "package_seals" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"status" "seal_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"audit_head_hash" text,
	"certificate" "bytea",
	"certificate_sha256" text,
	"sealed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sealed_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"package_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"content" "bytea" NOT NULL,
	"size_bytes" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_fields" ADD CONSTRAINT "document_fields_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_fields" ADD CONSTRAINT "document_fields_document_id_package_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."package_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_fields" ADD CONSTRAINT "document_fields_signer_id_package_signers_id_fk" FOREIGN KEY ("signer_id") REFERENCES "public"."package_signers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_fields" ADD CONSTRAINT "document_fields_template_id_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_fields" ADD CONSTRAINT "document_fields_template_document_id_template_documents_id_fk" FOREIGN KEY ("template_document_id") REFERENCES "public"."template_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_seals" ADD CONSTRAINT "package_seals_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_documents" ADD CONSTRAINT "sealed_documents_package_id_signing_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."signing_packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sealed_documents" ADD CONSTRAINT "sealed_documents_document_id_package_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."package_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_fields_document_id_idx" ON "document_fields" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "document_fields_package_id_idx" ON "document_fields" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "document_fields_template_document_id_idx" ON "document_fields" USING btree ("template_document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "package_seals_package_id_key" ON "package_seals" USING btree ("package_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sealed_documents_document_id_key" ON "sealed_documents" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "sealed_documents_package_id_idx" ON "sealed_documents" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "sealed_documents_sha256_idx" ON "sealed_documents" USING btree ("sha256");