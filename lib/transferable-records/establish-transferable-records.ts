import type { Db } from "@/db/client";
import { transferableRecords } from "@/db/schema";
import { appendControlEntry } from "./control-log";

/**
 * Called in the sealing transaction: each sealed file of a document marked transferable becomes the
 * record's single authoritative copy (its object key and SHA-256; objects are content-addressed and
 * never rewritten), under the control of the sending organization, and its control log opens with an
 * `established` entry linked to the package's anchored audit head. A record that exists already (a
 * repeated seal) is left as it is.
 */
export async function establishTransferableRecords(
  tx: Db,
  options: {
    packageId: string;
    organizationId: number;
    /** The package's audit head at completion; the control log's first entry links to it. */
    anchor: string | null;
    establishedAt: Date;
    copies: { documentId: string; storageKey: string; sha256: string }[];
  },
): Promise<void> {
  const anchor = options.anchor ?? `package:${options.packageId}`;
  for (const copy of options.copies) {
    const [record] = await tx
      .insert(transferableRecords)
      .values({
        packageId: options.packageId,
        documentId: copy.documentId,
        authoritativeStorageKey: copy.storageKey,
        authoritativeSha256: copy.sha256,
        controllerOrganizationId: options.organizationId,
        logHeadHash: anchor,
        logLength: 0,
        establishedAt: options.establishedAt,
      })
      .onConflictDoNothing({ target: transferableRecords.documentId })
      .returning();
    if (!record) continue;
    await appendControlEntry(
      tx,
      record,
      { action: "established", fromOrganizationId: null, toOrganizationId: options.organizationId, controllerOrganizationId: options.organizationId, actorUserId: null },
      options.organizationId,
    );
  }
}
