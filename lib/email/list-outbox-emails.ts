import { desc } from "drizzle-orm";
import type { Db } from "@/db/client";
import { outboxEmails, type OutboxEmail } from "@/db/schema";

/** The newest mails kept by the dev outbox (SMTP_URL unset), for the /dev/outbox page. */
export async function listOutboxEmails(db: Db, options: { limit: number }): Promise<OutboxEmail[]> {
  return db.select().from(outboxEmails).orderBy(desc(outboxEmails.id)).limit(options.limit);
}
