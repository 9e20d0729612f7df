/**
 * Addresses inside a package's `/signings/<id>` route, shared by the signer's and the manager's views.
 */

/** A package document's PDF as the viewer loads it (`download`: as an attachment). */
export function documentFileUrl(packageId: string, documentId: string, download = false): string {
  return `/signings/${packageId}/documents/${documentId}/file${download ? "?download=1" : ""}`;
}
