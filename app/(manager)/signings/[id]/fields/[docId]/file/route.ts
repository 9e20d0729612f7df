// GET /signings/:id/fields/:docId/file – a package document's PDF for the field editor (a manager's session; the package in their scope).
import { getPackageDocumentFile } from "@/lib/signings/get-package-document-file";
import { documentFileRoute } from "../../../../../_shared/document-fields/document-file-route";

export const dynamic = "force-dynamic";

export const GET = documentFileRoute((db, principal, { id, docId }) => getPackageDocumentFile(db, { principal, packageId: id, documentId: docId }));
