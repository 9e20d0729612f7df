-- pg_trgm is a trusted extension (PostgreSQL 13+): the database owner may create it. PGlite loads it in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "signing_packages_title_trgm_idx" ON "signing_packages" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "package_signers_name_trgm_idx" ON "package_signers" USING gin ("name" gin_trgm_ops);