import { and, eq } from "drizzle-orm";
import type { SelectedFields } from "drizzle-orm/pg-core";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { Db } from "@/db/client";
import { packageDocuments, templateDocuments } from "@/db/schema";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/** A document of a package or of a template, by the id of the one it belongs to. */
export type DocumentRef = { packageId: string; documentId: string } | { templateId: string; documentId: string };

/**
 * The one "check the document id, select it within its package (or template), or 404": a malformed
 * id and a document of another package answer the same `Document … not found.` Callers pick the
 * columns they need (`(t) => ({ id: t.id, sha256: t.sha256 })`), so a listing never reads the PDF
 * bytes. The caller has already loaded the package or template in the caller's scope (and locked it
 * when it writes).
 */
export async function getDocumentOrThrow<T extends SelectedFields>(
  db: Db,
  ref: { packageId: string; documentId: string },
  columns: (table: typeof packageDocuments) => T,
): Promise<SelectResultFields<T>>;
export async function getDocumentOrThrow<T extends SelectedFields>(
  db: Db,
  ref: { templateId: string; documentId: string },
  columns: (table: typeof templateDocuments) => T,
): Promise<SelectResultFields<T>>;
export async function getDocumentOrThrow(
  db: Db,
  ref: DocumentRef,
  columns: ((table: typeof packageDocuments) => SelectedFields) | ((table: typeof templateDocuments) => SelectedFields),
): Promise<unknown> {
  // Ids arrive from forms and URLs: anything that is not a uuid string is "not found", never a TypeError.
  const notFound = NotFound(`Document ${String(ref.documentId).slice(0, 64)} not found.`);
  if (typeof ref.documentId !== "string" || !isUuid(ref.documentId)) throw notFound;
  const [document] =
    "packageId" in ref
      ? await db
          .select((columns as (table: typeof packageDocuments) => SelectedFields)(packageDocuments))
          .from(packageDocuments)
          .where(and(eq(packageDocuments.id, ref.documentId), eq(packageDocuments.packageId, ref.packageId)))
          .limit(1)
      : await db
          .select((columns as (table: typeof templateDocuments) => SelectedFields)(templateDocuments))
          .from(templateDocuments)
          .where(and(eq(templateDocuments.id, ref.documentId), eq(templateDocuments.templateId, ref.templateId)))
          .limit(1);
  if (!document) throw notFound;
  return document;
}
