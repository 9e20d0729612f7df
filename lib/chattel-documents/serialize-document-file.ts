import type { ChattelDocumentFile } from "@/db/schema";

export type DocumentFileJson = ReturnType<typeof serializeDocumentFile>;

export function serializeDocumentFile(f: Omit<ChattelDocumentFile, "content" | "storageKey">) {
  return {
    id: f.id,
    documentId: f.chattelDocumentId,
    fileName: f.fileName,
    contentType: f.contentType,
    sizeBytes: f.sizeBytes,
    sha256: f.sha256,
    storage: f.storage,
    uploadedByUserId: f.uploadedByUserId,
    createdAt: f.createdAt.toISOString(),
  };
}
