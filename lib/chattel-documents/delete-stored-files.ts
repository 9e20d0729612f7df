import { log } from "@/lib/log";
import { fileStorageFor, type StoredFile } from "@/lib/storage/file-storage";

/** Best-effort removal of file bytes after their rows are gone; failures are logged, not thrown. */
export async function deleteStoredFiles(files: StoredFile[]): Promise<void> {
  for (const file of files) {
    if (file.storage === "database") continue;
    try {
      await fileStorageFor(file.storage).delete(file);
    } catch (error) {
      log.warn("could not delete a stored file; the object is orphaned", { storageKey: file.storageKey, error });
    }
  }
}
