import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentFields, packageDocuments } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getSigningOrThrow } from "@/lib/signings/get-signing-or-throw";
import { FIELD_ORDER } from "./field-order";
import { serializePackageField } from "./serialize-package-field";

/** The fields placed on one document of a package the caller manages, in reading order. */
export async function listDocumentFields(db: Db, options: { principal: Principal; packageId: string; documentId: string }) {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const notFound = NotFound(`Document ${options.documentId.slice(0, 64)} not found.`);
  if (!isUuid(options.documentId)) throw notFound;
  const [document] = await db
    .select({ id: packageDocuments.id })
    .from(packageDocuments)
    .where(and(eq(packageDocuments.id, options.documentId), eq(packageDocuments.packageId, signing.id)))
    .limit(1);
  if (!document) throw notFound;
  const rows = await db.select().from(documentFields).where(eq(documentFields.documentId, document.id)).orderBy(...FIELD_ORDER);
  return { data: rows.map(serializePackageField) };
}
