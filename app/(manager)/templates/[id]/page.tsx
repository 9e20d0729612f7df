import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { ButtonLink } from "@/components/ui/button-link";
import { canAccess, hasCapability } from "@/lib/auth/principal";
import { isUuid } from "@/lib/ids";
import { getTemplateDetail } from "@/lib/templates/get-template-detail";
import { DeleteDialogForm } from "../../_shared/delete-dialog-form";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, Section } from "@/components/ui/section";
import { removeTemplateDocumentAction, setTemplateDocumentModeAction, setTemplateDocumentTransferableAction, updateTemplateAction, uploadTemplateDocumentAction } from "../actions";
import { DocumentModeForm } from "../_components/document-mode-form";
import { TransferableForm } from "../_components/transferable-form";
import { executionModeLabel } from "@/lib/closings/execution-mode-options";
import { TemplateForm } from "../_components/template-form";
import { proofMethodLabel } from "../../signings/_signing-form/signer-proof-select";
import { UploadDocumentForm } from "../_components/upload-document-form";
import { attachmentRequestLines } from "@/lib/attachments/attachment-request-schema";

export const metadata: Metadata = { title: "Template" };

const size = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

export default async function TemplatePage({ params }: { params: Promise<{ id: string }> }) {
  const id = (await params).id;
  const { db, principal } = await requirePrincipal(`/templates/${encodeURIComponent(id)}`);
  if (!isUuid(id) || !hasCapability(principal, "templates:read")) notFound();
  const template = await loadOr404(getTemplateDetail(db, { principal, templateId: id }));
  const canEdit = canAccess(principal, "templates:write", { organizationId: template.organizationId });
  const roles = template.roles.map((r) => ({
    key: r.key,
    label: r.label,
    role: r.role,
    routingOrder: String(r.routingOrder),
    authMethod: r.authMethod ?? "",
    attachments: attachmentRequestLines((r.attachments ?? []).map((a) => ({ ...a, description: a.description ?? null }))),
  }));

  return (
    <div className="space-y-6">
      <PageHeader crumbs={[{ href: "/templates", label: "Templates" }]} title={template.name}>
        {template.description ?? "No description."}
      </PageHeader>

      <Section
        id="template-documents-heading"
        title="Documents"
        actions={
          template.documents.length > 0 ? (
            // Field placement (issue 12) lives at /templates/<id>/fields.
            <ButtonLink href={`/templates/${template.id}/fields`}>Place fields</ButtonLink>
          ) : null
        }
      >
        {template.documents.length === 0 ? (
          <EmptyState>No documents yet.{canEdit ? " Upload the PDFs a package from this template starts with." : ""}</EmptyState>
        ) : (
          <ol className="divide-y divide-slate-100 rounded-md border border-slate-200" aria-labelledby="template-documents-heading">
            {template.documents.map((document, index) => (
              <li key={document.id} className="flex flex-wrap items-start justify-between gap-3 px-4 py-3">
                <div>
                  <p className="font-medium text-slate-900">{document.name}</p>
                  <p className="text-xs text-slate-600">
                    {document.pageCount} {document.pageCount === 1 ? "page" : "pages"} · {size(document.sizeBytes)}
                    {canEdit ? null : ` · ${executionModeLabel(document.executionMode)}`}
                  </p>
                </div>
                {canEdit ? (
                  <DocumentModeForm
                    id={`template-document-${index}`}
                    documentName={document.name}
                    executionMode={document.executionMode}
                    action={setTemplateDocumentModeAction.bind(null, template.id, document.id)}
                  />
                ) : null}
                {canEdit ? (
                  <TransferableForm
                    id={`template-document-${index}`}
                    documentName={document.name}
                    transferable={document.transferable}
                    action={setTemplateDocumentTransferableAction.bind(null, template.id, document.id)}
                  />
                ) : document.transferable ? (
                  <p className="text-xs text-slate-700">Transferable record</p>
                ) : null}
                {canEdit ? (
                  <DeleteDialogForm
                    id={`remove-document-${index}`}
                    title={`Remove ${document.name}?`}
                    description="New packages from this template will not include it. Packages created earlier keep their copy."
                    openLabel={`Remove ${document.name}`}
                    confirmLabel="Remove document"
                    action={removeTemplateDocumentAction.bind(null, template.id, document.id)}
                  />
                ) : null}
              </li>
            ))}
          </ol>
        )}
        {canEdit ? <UploadDocumentForm action={uploadTemplateDocumentAction.bind(null, template.id)} /> : null}
      </Section>

      {canEdit ? (
        <Section id="template-details-heading" title="Name and signer roles">
          <TemplateForm
            action={updateTemplateAction.bind(null, template.id)}
            idPrefix="template"
            initial={{ name: template.name, description: template.description, signerAuthMethod: template.signerAuthMethod, roles }}
            submitLabel="Save template"
            pendingLabel="Saving…"
          />
        </Section>
      ) : (
        <Section id="template-roles-heading" title="Signer roles">
          {roles.length === 0 ? (
            <EmptyState>No signer roles.</EmptyState>
          ) : (
            <ol className="list-decimal space-y-1 pl-6 text-sm text-slate-800">
              {template.roles.map((role) => (
                <li key={role.key}>
                  {role.label} ({role.role === "signer" ? "borrower" : "co-borrower"}), routing order {role.routingOrder}, proves who they are with{" "}
                  {(role.authMethod ? proofMethodLabel(role.authMethod) : `${proofMethodLabel(template.signerAuthMethod)} (the template's method)`).toLowerCase()}
                  {role.attachments?.length ? `; asked for ${role.attachments.map((a) => (a.required ? a.name : `${a.name} (optional)`)).join(", ")}` : null}
                </li>
              ))}
            </ol>
          )}
        </Section>
      )}
    </div>
  );
}
