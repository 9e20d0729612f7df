/**
 * Addresses inside a package's `/signings/<id>` route, shared by the signer's and the manager's views.
 */

/** A package document's PDF as the viewer loads it (`download`: as an attachment). */
export function documentFileUrl(packageId: string, documentId: string, download = false): string {
  return `/signings/${packageId}/documents/${documentId}/file${download ? "?download=1" : ""}`;
}

/** A signer's attachment as kept (a PDF), for the package's manager or the signer who sent it (`download`: as an attachment). */
export function attachmentFileUrl(packageId: string, attachmentId: string, download = false): string {
  return `/signings/${packageId}/attachments/${attachmentId}/file${download ? "?download=1" : ""}`;
}
