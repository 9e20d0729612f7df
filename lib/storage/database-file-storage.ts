import type { FileStorage } from "./types";

/** Keeps the bytes in the file row itself (`chattel_document_files.content`), so deleting the row deletes them. */
export const databaseFileStorage: FileStorage = {
  kind: "database",
  put: async ({ bytes }) => ({ storage: "database", storageKey: null, content: bytes }),
  get: async (file) => {
    if (!file.content) throw new Error("A database-stored file has no content.");
    return file.content;
  },
  delete: async () => {},
};
