import type { Metadata } from "next";
import Link from "next/link";
import { FieldEditor, type EditorDocument } from "@/components/field-editor/field-editor";
import { hasCapability } from "@/lib/auth/principal";
import { listDocumentFields } from "@/lib/fields/list-document-fields";
import { getSigningOrThrow } from "@/lib/signings/get-signing-or-throw";
import { listPackageDocuments } from "@/lib/signings/list-package-documents";
import { listSigners } from "@/lib/signings/list-signers";
import { requirePrincipal } from "../../../../_lib/require-principal";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { saveSigningFieldsAction } from "./actions";

export const metadata: Metadata = { title: "Place fields" };

type Props = { params: Promise<{ id: string }> };

/**
 * `/signings/<id>/fields`: the manager places signature, initials, date, name, text and checkbox
 * fields for each signer on the pages of a draft's documents. A sent package shows its fields
 * read-only. Without `signings:write` the page says so; a package out of scope is not found.
 */
export default async function SigningFieldsPage({ params }: Props) {
  const { id } = await params;
  const { db, principal } = await requirePrincipal(`/signings/${id}/fields`);
  if (!hasCapability(principal, "signings:write")) {
    return (
      <div className="mx-auto max-w-2xl space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Place fields</h1>
        <p className="text-slate-800">Placing fields on documents needs a manager role at the package’s location. Ask your organization’s administrator.</p>
      </div>
    );
  }
  const signing = await loadOr404(getSigningOrThrow(db, { principal, packageId: id, capability: "signings:write" }));
  const [documents, signers] = await Promise.all([listPackageDocuments(db, { principal, packageId: id }), listSigners(db, { principal, packageId: id })]);
  const editorDocuments: EditorDocument[] = await Promise.all(
    documents.data.map(async (d) => ({
      id: d.id,
      name: d.name,
      pageCount: d.pageCount,
      fileUrl: `/signings/${signing.id}/fields/${d.id}/file`,
      fields: (await listDocumentFields(db, { principal, packageId: id, documentId: d.id })).data.map((f) => ({
        key: f.id,
        party: f.signerId,
        type: f.type,
        page: f.page,
        x: f.x,
        y: f.y,
        width: f.width,
        height: f.height,
        required: f.required,
        label: f.label ?? "",
      })),
    })),
  );

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p className="text-sm">
          <Link href={`/signings/${signing.id}`} className="font-medium text-blue-800 underline underline-offset-2 hover:text-blue-950">
            Back to {signing.title}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Place fields: {signing.title}</h1>
        <p className="max-w-3xl text-sm text-slate-700">
          Put each signer’s fields where they belong on the pages. Signers are guided from field to field and cannot sign a document until
          its required fields are filled. Date signed and full name are filled in when they sign.
        </p>
      </div>
      <FieldEditor
        documents={editorDocuments}
        parties={signers.data.map((s) => ({ key: s.id, name: s.name }))}
        partyNoun="Signer"
        partyField="signerId"
        hidden={{ signingId: signing.id }}
        action={saveSigningFieldsAction}
        readOnly={signing.status === "draft" ? null : `This package was sent (${signing.status.replace("_", " ")}); its fields can no longer change.`}
      />
    </div>
  );
}
