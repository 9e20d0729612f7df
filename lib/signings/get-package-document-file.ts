import type { Db } from "@/db/client";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSigningOrThrow } from "./get-signing-or-throw";
import { getDocumentOrThrow } from "./get-document-or-throw";

/** The stored bytes of one document of a package the caller manages. */
export async function getPackageDocumentFile(db: Db, options: { principal: Principal; packageId: string; documentId: string }) {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const document = await getDocumentOrThrow(db, { packageId: signing.id, documentId: options.documentId }, (t) => ({ name: t.name, contentType: t.contentType, content: t.content, sha256: t.sha256 }));
  return document;
}
