import { templateDocuments } from "@/db/schema";

/** The columns `serializeDocumentMetadata` needs from a template document: everything but the bytes, with the execution mode packages start from. */
export const templateDocumentMetadataColumns = {
  id: templateDocuments.id,
  name: templateDocuments.name,
  sizeBytes: templateDocuments.sizeBytes,
  sha256: templateDocuments.sha256,
  pageCount: templateDocuments.pageCount,
  position: templateDocuments.position,
  createdAt: templateDocuments.createdAt,
  executionMode: templateDocuments.executionMode,
  transferable: templateDocuments.transferable,
};
