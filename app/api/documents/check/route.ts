// POST /api/documents/check – checks a PDF (raw `application/pdf` body) by the upload rules of /v1 before a manager's form attaches it; stores nothing.
import { requireCapability } from "@/lib/auth/principal";
import { MAX_PDF_BYTES, validatePdfUpload } from "@/lib/pdf/validate-pdf-upload";
import { AppError } from "@/lib/errors";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

const MAX_BODY_BYTES = MAX_PDF_BYTES + 64 * 1024;

export const POST = routeHandler(
  {
    maxBodyBytes: MAX_BODY_BYTES,
    // A browser declares the file's size: refuse at once with the upload rule's words instead of reading it.
    preflight: (request) => {
      if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) {
        throw new AppError("payload_too_large", `The upload exceeds the ${MAX_PDF_BYTES / 1024 / 1024} MiB limit.`);
      }
    },
    session: { unauthorized: "Sign in to upload documents." },
    sameOrigin: true,
    headers: { "Cache-Control": "no-store" },
  },
  async ({ rawBody, principal }) => {
    requireCapability(principal, "signings:write", "You do not have permission to change documents.");
    const pdf = await validatePdfUpload({ bytes: rawBody, name: "Document.pdf" });
    return Response.json({ pageCount: pdf.pageCount, sizeBytes: pdf.sizeBytes });
  },
);
