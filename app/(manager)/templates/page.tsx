import type { Metadata } from "next";
import Link from "next/link";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { canAccess, hasCapability } from "@/lib/auth/principal";
import { listOrganizations } from "@/lib/organizations/list-organizations";
import { listTemplates } from "@/lib/templates/list-templates";
import { cursorParam, listFromCursor } from "../_shared/list-cursor";
import { NextPageLink } from "../_shared/next-page-link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, Section } from "@/components/ui/section";
import { createTemplateAction } from "./actions";
import { TemplateForm } from "./_components/template-form";
import { subtleLinkClass } from "@/components/ui/classes";
import { formatDate } from "@/lib/format";

export const metadata: Metadata = { title: "Templates" };

const PATH = "/templates";

export default async function TemplatesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { db, principal } = await requirePrincipal(PATH);
  if (!hasCapability(principal, "templates:read")) {
    return (
      <PageHeader title="Templates">
        Templates are managed by lenders&apos; managers. Your account has no manager role; ask your organization&apos;s administrator if
        you need one.
      </PageHeader>
    );
  }
  const cursor = cursorParam((await searchParams).cursor);
  const [page, organizations] = await Promise.all([
    listFromCursor((c) => listTemplates(db, { principal, limit: 25, cursor: c }), cursor),
    listOrganizations(db, { principal, limit: 100 }),
  ]);
  const names = new Map(organizations.rows.map((o) => [o.id, o.name]));
  const writable = organizations.rows.filter((o) => canAccess(principal, "templates:write", { organizationId: o.id }));

  return (
    <div className="space-y-6">
      <PageHeader title="Templates">
        A template holds the documents and signer roles a kind of closing needs; a new package can start from one.
      </PageHeader>

      <Section id="templates-heading" title="Your templates">
        {page.rows.length === 0 ? (
          <EmptyState>No templates yet.{writable.length > 0 ? " Create the first one below." : ""}</EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-md border border-slate-200">
            <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
              <caption className="sr-only">Templates, newest first</caption>
              <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-2">Name</th>
                  <th scope="col" className="px-4 py-2">Signer roles</th>
                  <th scope="col" className="hidden px-4 py-2 md:table-cell">Organization</th>
                  <th scope="col" className="px-4 py-2">Updated</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {page.rows.map((template) => (
                  <tr key={template.id}>
                    <th scope="row" className="px-4 py-2 font-medium">
                      <Link
                        href={`/templates/${template.id}`}
                        className={subtleLinkClass}
                      >
                        {template.name}
                      </Link>
                    </th>
                    <td className="px-4 py-2 text-slate-700">{template.roles.map((r) => r.label).join(", ") || "None"}</td>
                    <td className="hidden px-4 py-2 text-slate-700 md:table-cell">{names.get(template.organizationId) ?? `#${template.organizationId}`}</td>
                    <td className="whitespace-nowrap px-4 py-2 text-slate-700">{formatDate(template.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <NextPageLink path={PATH} cursor={cursor} nextCursor={page.nextCursor} label="Templates" />
      </Section>

      {writable.length > 0 ? (
        <Section id="new-template-heading" title="New template">
          <p className="text-sm text-slate-700">Name it and list its signer roles; you add its PDF documents on the next page.</p>
          <TemplateForm
            action={createTemplateAction}
            idPrefix="new-template"
            initial={{ name: "", description: null, signerAuthMethod: "email_code", roles: [] }}
            organizations={writable.map((o) => ({ id: o.id, name: o.name }))}
            submitLabel="Create template"
            pendingLabel="Creating…"
          />
        </Section>
      ) : null}
    </div>
  );
}
