// GET /templates/:id/fields/:docId/file – a template document's PDF for the field editor (a manager's session; the template in their organization).
import { getTemplateDocumentFile } from "@/lib/templates/get-template-document-file";
import { documentFileRoute } from "../../../../../_shared/document-fields/document-file-route";

export const dynamic = "force-dynamic";

export const GET = documentFileRoute((db, principal, { id, docId }) => getTemplateDocumentFile(db, { principal, templateId: id, documentId: docId }));
