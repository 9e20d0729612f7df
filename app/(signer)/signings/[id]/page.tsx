// Placeholder package page so the documents viewer can be used and measured; the signer package page (issue 10) replaces it.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DocumentsViewer } from "@/components/pdf-viewer/documents-viewer";
import { SiteHeader } from "@/components/site-header";
import { AppError } from "@/lib/errors";
import { getAssignedSigning } from "@/lib/signings/get-assigned-signing";
import { requirePrincipal } from "../../../_lib/require-principal";

export const metadata: Metadata = { title: "Signing package" };

export default async function SigningPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { db, principal } = await requirePrincipal(`/signings/${encodeURIComponent(id)}`);
  const signing = await getAssignedSigning(db, { principal, packageId: id }).catch((error: unknown) => {
    if (error instanceof AppError && (error.status === 404 || error.status === 403)) notFound();
    throw error;
  });
  const documents = signing.documents.map((d) => {
    const base = `/signings/${signing.id}/documents/${d.id}/file`;
    const requests = d.signatureRequests;
    const status = requests.length === 0 ? undefined : requests.every((r) => r.status === "signed") ? "Signed" : "To sign";
    return { id: d.id, name: d.name, pageCount: d.pageCount, fileUrl: base, downloadUrl: `${base}?download=1`, status };
  });

  return (
    <>
      <SiteHeader user={principal.user} />
      <main id="main" className="mx-auto max-w-6xl space-y-6 px-4 py-6 sm:px-6">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{signing.title}</h1>
        <DocumentsViewer documents={documents} />
      </main>
    </>
  );
}
