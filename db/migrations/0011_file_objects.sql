CREATE TABLE "file_objects" (
	"key" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- File bytes leave the file rows: every distinct content becomes one object in "file_objects" (the
-- embedded default's object store, keyed like an S3 object), and each row keeps its object's key.
-- `npm run storage:migrate` later moves these objects to S3 when S3 storage is configured.
ALTER TABLE "template_documents" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "package_documents" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "package_seals" ADD COLUMN "certificate_storage_key" text;--> statement-breakpoint
ALTER TABLE "sealed_documents" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "document_scans" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD COLUMN "image_storage_key" text;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD COLUMN "image_size_bytes" integer;--> statement-breakpoint
ALTER TABLE "scanback_pages" ADD COLUMN "image_sha256" text;--> statement-breakpoint
INSERT INTO "file_objects" ("key", "sha256", "size_bytes", "content_type", "content")
SELECT 'sha256/' || encode(sha256("content"), 'hex'), encode(sha256("content"), 'hex'), octet_length("content"), 'application/pdf', "content" FROM "template_documents"
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
INSERT INTO "file_objects" ("key", "sha256", "size_bytes", "content_type", "content")
SELECT 'sha256/' || encode(sha256("content"), 'hex'), encode(sha256("content"), 'hex'), octet_length("content"), "content_type", "content" FROM "package_documents"
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
INSERT INTO "file_objects" ("key", "sha256", "size_bytes", "content_type", "content")
SELECT 'sha256/' || encode(sha256("content"), 'hex'), encode(sha256("content"), 'hex'), octet_length("content"), 'application/pdf', "content" FROM "sealed_documents"
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
INSERT INTO "file_objects" ("key", "sha256", "size_bytes", "content_type", "content")
SELECT 'sha256/' || encode(sha256("certificate"), 'hex'), encode(sha256("certificate"), 'hex'), octet_length("certificate"), 'application/pdf', "certificate" FROM "package_seals" WHERE "certificate" IS NOT NULL
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
INSERT INTO "file_objects" ("key", "sha256", "size_bytes", "content_type", "content")
SELECT 'sha256/' || encode(sha256("content"), 'hex'), encode(sha256("content"), 'hex'), octet_length("content"), 'application/pdf', "content" FROM "document_scans"
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
INSERT INTO "file_objects" ("key", "sha256", "size_bytes", "content_type", "content")
SELECT 'sha256/' || encode(sha256("image"), 'hex'), encode(sha256("image"), 'hex'), octet_length("image"), "content_type", "image" FROM "scanback_pages"
ON CONFLICT ("key") DO NOTHING;--> statement-breakpoint
UPDATE "template_documents" SET "storage_key" = 'sha256/' || encode(sha256("content"), 'hex');--> statement-breakpoint
UPDATE "package_documents" SET "storage_key" = 'sha256/' || encode(sha256("content"), 'hex');--> statement-breakpoint
UPDATE "sealed_documents" SET "storage_key" = 'sha256/' || encode(sha256("content"), 'hex');--> statement-breakpoint
UPDATE "document_scans" SET "storage_key" = 'sha256/' || encode(sha256("content"), 'hex');--> statement-breakpoint
UPDATE "package_seals" SET "certificate_storage_key" = 'sha256/' || encode(sha256("certificate"), 'hex') WHERE "certificate" IS NOT NULL;--> statement-breakpoint
UPDATE "scanback_pages" SET "image_storage_key" = 'sha256/' || encode(sha256("image"), 'hex'), "image_size_bytes" = octet_length("image"), "image_sha256" = encode(sha256("image"), 'hex');--> statement-breakpoint
ALTER TABLE "template_documents" ALTER COLUMN "storage_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "package_documents" ALTER COLUMN "storage_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "sealed_documents" ALTER COLUMN "storage_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "document_scans" ALTER COLUMN "storage_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "scanback_pages" ALTER COLUMN "image_storage_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "scanback_pages" ALTER COLUMN "image_size_bytes" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "scanback_pages" ALTER COLUMN "image_sha256" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "template_documents" DROP COLUMN "content";--> statement-breakpoint
ALTER TABLE "package_documents" DROP COLUMN "content";--> statement-breakpoint
ALTER TABLE "package_seals" DROP COLUMN "certificate";--> statement-breakpoint
ALTER TABLE "sealed_documents" DROP COLUMN "content";--> statement-breakpoint
ALTER TABLE "document_scans" DROP COLUMN "content";--> statement-breakpoint
ALTER TABLE "scanback_pages" DROP COLUMN "image";
