import type { Db } from "@/db/client";
import type { ChattelDocument } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getChattelDocumentOrThrow } from "@/lib/chattel-documents/get-chattel-document-or-throw";
import { Unavailable } from "@/lib/errors";
import { getRealtimeBus } from "@/lib/realtime/get-realtime-bus";
import type { RealtimeBus } from "@/lib/realtime/realtime-bus";

/**
 * The checks every comments operation starts with, in order: capability (403), the real-time
 * service (503: comments are not offered without it), the document in scope (404).
 */
export async function getCommentsContext(
  db: Db,
  options: { principal: Principal; documentId: string; write: boolean },
): Promise<{ bus: RealtimeBus; document: ChattelDocument }> {
  const capability = options.write ? "comments:write" : "comments:read";
  requireCapability(
    options.principal,
    capability,
    options.write ? "You do not have permission to write comments." : "You do not have permission to read comments.",
  );
  const bus = getRealtimeBus();
  if (!bus) throw Unavailable("Comments need the real-time service, which is not configured (REALTIME_URL).");
  const document = await getChattelDocumentOrThrow(db, { principal: options.principal, documentId: options.documentId, capability });
  return { bus, document };
}
