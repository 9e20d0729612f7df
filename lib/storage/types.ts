export type StorageKind = "database" | "s3";

/** What a file row keeps to find its bytes again: inline bytes (database) or an object key (S3). */
export type StoredFile = { storage: StorageKind; storageKey: string | null; content: Uint8Array | null };

/** Where uploaded document files live. One interface, two backends (database bytea, S3-compatible). */
export type FileStorage = {
  kind: StorageKind;
  /** Stores the bytes; returns the columns the file row must keep. Must be safe to repeat with the same key. */
  put(input: { key: string; bytes: Uint8Array; contentType: string }): Promise<StoredFile>;
  get(file: StoredFile): Promise<Uint8Array>;
  /** Removes the bytes; a missing object is not an error. */
  delete(file: StoredFile): Promise<void>;
};
