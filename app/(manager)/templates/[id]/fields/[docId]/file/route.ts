// GET /templates/:id/fields/:docId/file – a template document's PDF for the field editor (a manager's session; the template in their organization).
import { documentFileRoute } from "../../../../../_shared/document-fields/document-file-route";

export const dynamic = "force-dynamic";

export const GET = documentFileRoute("template");
