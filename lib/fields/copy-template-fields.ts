import { inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentFields } from "@/db/schema";
import { placementColumns } from "./field-placement";

/**
 * Copies a template's fields into a package created from it: each field lands on the copy of its
 * document, for the signer created for its role. Fields of a role no signer took are left out (the
 * package has nobody to fill them). Runs in the creating transaction.
 */
export async function copyTemplateFields(
  db: Db,
  options: { packageId: string; documentIds: ReadonlyMap<string, string>; signerIdsByRole: ReadonlyMap<string, string> },
): Promise<number> {
  if (options.documentIds.size === 0 || options.signerIdsByRole.size === 0) return 0;
  const sources = await db
    .select()
    .from(documentFields)
    .where(inArray(documentFields.templateDocumentId, [...options.documentIds.keys()]));
  const copies = sources.flatMap((f) => {
    const documentId = options.documentIds.get(f.templateDocumentId!);
    const signerId = options.signerIdsByRole.get(f.templateRoleKey!);
    if (!documentId || !signerId) return [];
    return [
      {
        packageId: options.packageId,
        documentId,
        signerId,
        ...placementColumns(f),
      },
    ];
  });
  if (copies.length > 0) await db.insert(documentFields).values(copies);
  return copies.length;
}

