import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { chattelDocuments, type ChattelDocument } from "@/db/schema";
import type { Capability } from "@/lib/auth/capabilities";
import { canAccess, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";

/**
 * Loads a chattel document the principal may reach with `capability`; otherwise 404, never
 * revealing that it exists. `lock` locks the row for the rest of the transaction.
 */
export async function getChattelDocumentOrThrow(
  db: Db,
  options: { principal: Principal; documentId: string; capability: Capability; lock?: boolean },
): Promise<ChattelDocument> {
  const query = db.select().from(chattelDocuments).where(eq(chattelDocuments.id, options.documentId)).limit(1);
  const [document] = options.lock ? await query.for("update") : await query;
  if (!document || !canAccess(options.principal, options.capability, document)) {
    throw NotFound(`Document ${options.documentId} not found.`);
  }
  return document;
}
