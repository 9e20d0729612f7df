// GET /signings/:id/closing/scans/:docId – an ink document's uploaded scan (PDF) for the manager reviewing it.
import { getDocumentScanFile } from "@/lib/closings/closing-detail";
import { documentFileRoute } from "../../../../../_shared/document-fields/document-file-route";

export const dynamic = "force-dynamic";

export const GET = documentFileRoute((db, principal, { id, docId }) => getDocumentScanFile(db, { principal, packageId: id, documentId: docId }));
