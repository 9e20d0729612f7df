import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, templateDocuments, type ExecutionMode, type PackageDocument, type SigningPackage, type Template, type TemplateDocument } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";

/** The flags a manager sets on one document of a draft or of a template, with the values they take. */
export type DocumentFlags = { executionMode: ExecutionMode; transferable: boolean };

type FlagChange<F extends keyof DocumentFlags> = {
  document: { id: string } & Pick<DocumentFlags, F>;
  flag: F;
  value: DocumentFlags[F];
  actorUserId: string;
  ipAddress?: string | null;
};

const ACTIONS = {
  package: { executionMode: "document.execution_mode_changed", transferable: "document.transferable_changed" },
  template: { executionMode: "template.document_execution_mode_changed", transferable: "template.document_transferable_changed" },
} as const;

/**
 * Sets one flag of a package's or a template's document when it differs from the value asked for,
 * and audits the change with the flag before and after; nothing is written when it already holds
 * it. The caller has loaded (and locked) the package or template, checked what may change, and
 * read the document. Returns the document as updated, or null when it was left as it was.
 */
export async function setDocumentFlag<F extends keyof DocumentFlags>(tx: Db, change: FlagChange<F> & { signing: SigningPackage }): Promise<PackageDocument | null>;
export async function setDocumentFlag<F extends keyof DocumentFlags>(tx: Db, change: FlagChange<F> & { template: Template }): Promise<TemplateDocument | null>;
export async function setDocumentFlag(
  tx: Db,
  change: Omit<FlagChange<keyof DocumentFlags>, "document"> & { document: { id: string } & Partial<DocumentFlags> } & ({ signing: SigningPackage } | { template: Template }),
): Promise<PackageDocument | TemplateDocument | null> {
  const { document, flag, value } = change;
  if (document[flag] === value) return null;
  const inPackage = "signing" in change;
  const [after] = inPackage
    ? await tx.update(packageDocuments).set({ [flag]: value }).where(eq(packageDocuments.id, document.id)).returning()
    : await tx.update(templateDocuments).set({ [flag]: value }).where(eq(templateDocuments.id, document.id)).returning();
  await recordAuditEntry(tx, {
    organizationId: inPackage ? change.signing.organizationId : change.template.organizationId,
    packageId: inPackage ? change.signing.id : null,
    actorUserId: change.actorUserId,
    action: ACTIONS[inPackage ? "package" : "template"][flag],
    entityType: inPackage ? "package_document" : "template_document",
    entityId: document.id,
    ipAddress: change.ipAddress,
    before: { [flag]: document[flag] },
    after: { [flag]: value },
  });
  return after!;
}
