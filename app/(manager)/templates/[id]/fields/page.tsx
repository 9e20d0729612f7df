import type { Metadata } from "next";
import Link from "next/link";
import { FieldEditor, type EditorDocument } from "@/components/field-editor/field-editor";
import { hasCapability } from "@/lib/auth/principal";
import { listTemplateDocumentFields } from "@/lib/fields/list-template-document-fields";
import { getTemplateDetail } from "@/lib/templates/get-template-detail";
import { requirePrincipal } from "../../../../_lib/require-principal";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { saveTemplateFieldsAction } from "./actions";

export const metadata: Metadata = { title: "Place template fields" };

type Props = { params: Promise<{ id: string }> };

/**
 * `/templates/<id>/fields`: fields per template role on the template's documents; packages created
 * from the template get a copy for the signers given those roles.
 */
export default async function TemplateFieldsPage({ params }: Props) {
  const { id } = await params;
  const { db, principal } = await requirePrincipal(`/templates/${id}/fields`);
  if (!hasCapability(principal, "templates:read")) {
    return (
      <div className="mx-auto max-w-2xl space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Place template fields</h1>
        <p className="text-slate-800">Templates are managed by your organization’s managers. Ask your organization’s administrator for access.</p>
      </div>
    );
  }
  const template = await loadOr404(getTemplateDetail(db, { principal, templateId: id }));
  const editorDocuments: EditorDocument[] = await Promise.all(
    template.documents.map(async (d) => ({
      id: d.id,
      name: d.name,
      pageCount: d.pageCount,
      fileUrl: `/templates/${template.id}/fields/${d.id}/file`,
      fields: (await listTemplateDocumentFields(db, { principal, templateId: id, documentId: d.id })).data.map((f) => ({
        key: f.id,
        party: f.roleKey,
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
  const canWrite = hasCapability(principal, "templates:write");

  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p className="text-sm">
          <Link href="/templates" className="font-medium text-blue-800 underline underline-offset-2 hover:text-blue-950">
            Back to templates
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Place fields: {template.name}</h1>
        <p className="max-w-3xl text-sm text-slate-700">
          Fields are placed per role. A package created from this template gets them for the signers you give these roles.
        </p>
      </div>
      <FieldEditor
        documents={editorDocuments}
        parties={template.roles.map((r) => ({ key: r.key, name: r.label }))}
        partyNoun="Role"
        partyField="roleKey"
        hidden={{ templateId: template.id }}
        action={saveTemplateFieldsAction}
        readOnly={canWrite ? null : "You can look at this template’s fields; changing them needs a manager role."}
      />
    </div>
  );
}
