// GET /signings/:id/fields/:docId/file – a package document's PDF for the field editor (a manager's session; the package in their scope).
import { documentFileRoute } from "../../../../../_shared/document-fields/document-file-route";

export const dynamic = "force-dynamic";

export const GET = documentFileRoute("package");
