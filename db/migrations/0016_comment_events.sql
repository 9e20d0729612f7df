CREATE TABLE "comment_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "comment_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"chattel_document_id" uuid NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "comment_events" ADD CONSTRAINT "comment_events_chattel_document_id_chattel_documents_id_fk" FOREIGN KEY ("chattel_document_id") REFERENCES "public"."chattel_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "comment_events_chattel_document_id_idx" ON "comment_events" USING btree ("chattel_document_id","id");