export type StorageKind = "database" | "s3";

/**
 * What a stored file's row (chattel document file, logo) keeps to find its bytes: the object key
 * (`sha256/<hex>`, or a per-row bucket key written before files were objects), or, for a row written
 * before that on the embedded default, the bytes inline.
 */
export type StoredFile = { storage: StorageKind; storageKey: string | null; content: Uint8Array | null };
