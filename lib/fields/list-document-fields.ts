import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentFields } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSigningOrThrow } from "@/lib/signings/get-signing-or-throw";
import { FIELD_ORDER } from "./field-order";
import { getDocumentOrThrow } from "@/lib/signings/get-document-or-throw";

/** The fields placed on one document of a package the caller manages, in reading order, as rows (`serializePackageField` gives the `/v1` shape). */
export async function listDocumentFields(db: Db, options: { principal: Principal; packageId: string; documentId: string }) {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const document = await getDocumentOrThrow(db, { packageId: signing.id, documentId: options.documentId }, (t) => ({ id: t.id }));
  const rows = await db.select().from(documentFields).where(eq(documentFields.documentId, document.id)).orderBy(...FIELD_ORDER);
  return rows;
}
