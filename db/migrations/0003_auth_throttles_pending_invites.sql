CREATE TABLE "auth_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "invited_email" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "invited_name" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "accepted_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "inbound_emails" ADD COLUMN "message_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_emails_organization_message_id_key" ON "inbound_emails" USING btree ("organization_id","message_id");