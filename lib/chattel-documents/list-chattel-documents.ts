import { and, desc, eq, ilike, lt, or, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { chattelDocuments, type ChattelDocument } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { scopeFilter } from "@/lib/auth/scope-filter";
import { closeWindow, openWindow, type CappedPage } from "@/lib/pagination/capped-window";
import { containsPattern } from "@/lib/db/contains-pattern";

export type ListChattelDocumentsOptions = {
  principal: Principal;
  limit: number;
  cursor?: string;
  type?: ChattelDocument["type"];
  status?: ChattelDocument["status"];
  organizationId?: number;
  companyId?: number;
  locationId?: number;
  /** Case-insensitive substring of the title, the borrower's name or email, or the collateral serial. */
  q?: string;
};

/** The documents the caller may read, newest first, filtered and keyset-paginated. */
export async function listChattelDocuments(db: Db, options: ListChattelDocumentsOptions): Promise<CappedPage<ChattelDocument>> {
  requireCapability(options.principal, "documents:read", "You do not have permission to read documents.");
  const scope = scopeFilter(options.principal, "documents:read", chattelDocuments);
  const window = openWindow("documents", { ...options, cap: scope.cap }, z.uuid());
  const conditions: SQL[] = [scope.where];
  if (window.after) conditions.push(lt(chattelDocuments.id, window.after));
  if (options.type) conditions.push(eq(chattelDocuments.type, options.type));
  if (options.status) conditions.push(eq(chattelDocuments.status, options.status));
  if (options.organizationId) conditions.push(eq(chattelDocuments.organizationId, options.organizationId));
  if (options.companyId) conditions.push(eq(chattelDocuments.companyId, options.companyId));
  if (options.locationId) conditions.push(eq(chattelDocuments.locationId, options.locationId));
  if (options.q) {
    const pattern = containsPattern(options.q);
    conditions.push(
      or(
        ilike(chattelDocuments.title, pattern),
        ilike(chattelDocuments.borrowerName, pattern),
        ilike(chattelDocuments.borrowerEmail, pattern),
        ilike(chattelDocuments.collateralSerial, pattern),
      )!,
    );
  }
  const rows =
    window.take === 0
      ? []
      : await db
          .select()
          .from(chattelDocuments)
          .where(and(...conditions))
          .orderBy(desc(chattelDocuments.id))
          .limit(window.take + 1);
  return closeWindow(rows, window, scope.cap, (row) => row.id);
}
