import type { Db } from "@/db/client";
import type { ChattelDocument } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getChattelDocumentOrThrow } from "./get-chattel-document-or-throw";

/** One document the caller may read: 403 without documents:read, 404 outside their scope. */
export async function getChattelDocument(db: Db, options: { principal: Principal; documentId: string }): Promise<ChattelDocument> {
  requireCapability(options.principal, "documents:read", "You do not have permission to read documents.");
  return getChattelDocumentOrThrow(db, { ...options, capability: "documents:read" });
}
