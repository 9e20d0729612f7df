/** Metadata of a stored PDF (package or template document); never the bytes. */
export function serializeDocumentMetadata(d: {
  id: string;
  name: string;
  contentType?: string;
  sizeBytes: number;
  sha256: string;
  pageCount: number;
  position: number;
  createdAt: Date;
}) {
  return {
    id: d.id,
    name: d.name,
    contentType: d.contentType ?? "application/pdf",
    sizeBytes: d.sizeBytes,
    sha256: d.sha256,
    pageCount: d.pageCount,
    position: d.position,
    createdAt: d.createdAt.toISOString(),
  };
}
