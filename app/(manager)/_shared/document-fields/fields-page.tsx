import Link from "next/link";
import { EnglishViewerText } from "@/components/pdf-viewer/english-viewer-text";
import { FieldEditor, type EditorDocument, type EditorField, type FieldEditorProps } from "@/components/field-editor/field-editor";
import type { DocumentField } from "@/db/schema";
import { placementColumns } from "@/lib/fields/field-placement";
import type { Capability } from "@/lib/auth/capabilities";
import { hasCapability, type Principal } from "@/lib/auth/principal";
import type { Db } from "@/db/client";
import type { DocumentOwner } from "@/lib/document-owners/document-owner";
import { listFields } from "@/lib/fields/list-fields";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { listPackageDocuments } from "@/lib/signings/list-package-documents";
import { listSigners } from "@/lib/signings/list-signers";
import { getTemplateDetail } from "@/lib/templates/get-template-detail";
import { requirePrincipal } from "../../../_lib/require-principal";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { saveSigningFieldsAction } from "../../signings/[id]/fields/actions";
import { saveTemplateFieldsAction } from "../../templates/[id]/fields/actions";

/** What the page shows above the editor, and the editor's own props. */
type FieldsView = { backHref: string; backLabel: string; title: string; intro: string; editor: FieldEditorProps };

const toEditorField = (f: DocumentField): EditorField => ({
  key: f.id,
  // A package field is placed for a signer, a template field for a role.
  party: f.signerId ?? f.templateRoleKey ?? "",
  ...placementColumns(f),
  label: f.label ?? "",
});

/** The owner's documents with their stored fields, each PDF from `<path>/<docId>/file`. */
function toEditorDocuments(
  db: Db,
  principal: Principal,
  owner: { owner: DocumentOwner; ownerId: string; path: string },
  documents: { id: string; name: string; pageCount: number }[],
): Promise<EditorDocument[]> {
  return Promise.all(
    documents.map(async (d) => ({
      id: d.id,
      name: d.name,
      pageCount: d.pageCount,
      fileUrl: `${owner.path}/${d.id}/file`,
      fields: (await listFields(db, { principal, owner: owner.owner, ownerId: owner.ownerId, documentId: d.id })).map(toEditorField),
    })),
  );
}

/**
 * The two owners of placed fields: a package (fields per signer, editable while it is a draft) and
 * a template (fields per role, copied to the signers given those roles). Everything else about the
 * page is the same.
 */
const OWNERS = {
  package: {
    path: (id: string) => `/signings/${id}/fields`,
    capability: "signings:write",
    deniedTitle: "Place fields",
    denied: "Placing fields on documents needs a manager role at the package’s location. Ask your organization’s administrator.",
    async load(db: Db, principal: Principal, id: string): Promise<FieldsView> {
      const signing = await loadOr404(getSigningOrThrow(db, { principal, packageId: id, capability: "signings:write" }));
      const [documents, signers] = await Promise.all([listPackageDocuments(db, { principal, packageId: id }), listSigners(db, { principal, packageId: id })]);
      const editorDocuments = await toEditorDocuments(db, principal, { owner: "package", ownerId: signing.id, path: OWNERS.package.path(signing.id) }, documents);
      return {
        backHref: `/signings/${signing.id}`,
        backLabel: `Back to ${signing.title}`,
        title: signing.title,
        intro:
          "Put each signer’s fields where they belong on the pages. Signers are guided from field to field and cannot sign a document until its required fields are filled. Date signed and full name are filled in when they sign.",
        editor: {
          documents: editorDocuments,
          parties: signers.map((s) => ({ key: s.id, name: s.name })),
          partyNoun: "Signer",
          partyField: "signerId",
          hidden: { signingId: signing.id },
          action: saveSigningFieldsAction,
          readOnly: signing.status === "draft" ? null : `This package was sent (${signing.status.replace("_", " ")}); its fields can no longer change.`,
        },
      };
    },
  },
  template: {
    path: (id: string) => `/templates/${id}/fields`,
    capability: "templates:read",
    deniedTitle: "Place template fields",
    denied: "Templates are managed by your organization’s managers. Ask your organization’s administrator for access.",
    async load(db: Db, principal: Principal, id: string): Promise<FieldsView> {
      const template = await loadOr404(getTemplateDetail(db, { principal, templateId: id }));
      const editorDocuments = await toEditorDocuments(db, principal, { owner: "template", ownerId: template.id, path: OWNERS.template.path(template.id) }, template.documents);
      return {
        backHref: "/templates",
        backLabel: "Back to templates",
        title: template.name,
        intro: "Fields are placed per role. A package created from this template gets them for the signers you give these roles.",
        editor: {
          documents: editorDocuments,
          parties: template.roles.map((r) => ({ key: r.key, name: r.label })),
          partyNoun: "Role",
          partyField: "roleKey",
          hidden: { templateId: template.id },
          action: saveTemplateFieldsAction,
          readOnly: hasCapability(principal, "templates:write") ? null : "You can look at this template’s fields; changing them needs a manager role.",
        },
      };
    },
  },
} satisfies Record<string, { path: (id: string) => string; capability: Capability; deniedTitle: string; denied: string; load: (db: Db, principal: Principal, id: string) => Promise<FieldsView> }>;

export type FieldsOwner = keyof typeof OWNERS;

/**
 * `/signings/<id>/fields` and `/templates/<id>/fields`: the manager places signature, initials,
 * date, name, text and checkbox fields on the pages of the owner's documents, for each signer or
 * role. Without the capability the page says so; an owner out of scope is not found.
 */
export async function FieldsPage({ owner, id }: { owner: FieldsOwner; id: string }) {
  const kind = OWNERS[owner];
  const { db, principal } = await requirePrincipal(kind.path(id));
  if (!hasCapability(principal, kind.capability)) {
    return (
      <div className="mx-auto max-w-2xl space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{kind.deniedTitle}</h1>
        <p className="text-slate-800">{kind.denied}</p>
      </div>
    );
  }
  const view = await kind.load(db, principal, id);
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <p className="text-sm">
          <Link href={view.backHref} className="font-medium text-blue-800 underline underline-offset-2 hover:text-blue-950">
            {view.backLabel}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Place fields: {view.title}</h1>
        <p className="max-w-3xl text-sm text-slate-700">{view.intro}</p>
      </div>
      <EnglishViewerText>
        <FieldEditor {...view.editor} />
      </EnglishViewerText>
    </div>
  );
}
