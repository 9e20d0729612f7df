import type { Metadata } from "next";
import Link from "next/link";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { canAccess, hasCapability } from "@/lib/auth/principal";
import { listFlows } from "@/lib/flows/list-flows";
import { listOrganizations } from "@/lib/organizations/list-organizations";
import { cursorParam, listFromCursor } from "../_shared/list-cursor";
import { NextPageLink } from "../_shared/next-page-link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, Section } from "@/components/ui/section";
import { createFlowAction } from "./actions";
import { FlowForm } from "./_components/flow-form";
import { STEP_LABELS } from "./step-labels";
import { subtleLinkClass } from "@/components/ui/classes";

export const metadata: Metadata = { title: "Flows" };

const PATH = "/flows";

export default async function FlowsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { db, principal } = await requirePrincipal(PATH);
  if (!hasCapability(principal, "flows:read")) {
    return (
      <PageHeader title="Flows">
        Flows are managed by lenders&apos; managers. Your account has no manager role; ask your organization&apos;s administrator if you
        need one.
      </PageHeader>
    );
  }
  const cursor = cursorParam((await searchParams).cursor);
  const [page, organizations] = await Promise.all([
    listFromCursor((c) => listFlows(db, { principal, limit: 25, cursor: c }), cursor),
    listOrganizations(db, { principal, limit: 100 }),
  ]);
  const names = new Map(organizations.rows.map((o) => [o.id, o.name]));
  const writable = organizations.rows.filter((o) => canAccess(principal, "flows:write", { organizationId: o.id }));

  return (
    <div className="space-y-6">
      <PageHeader title="Flows">
        A flow is the order of steps a signer goes through: review the documents, sign, link a bank, upload documents, done. Each
        package follows one; the organization&apos;s default applies when none is chosen.
      </PageHeader>

      <Section id="flows-heading" title="Your flows">
        {page.rows.length === 0 ? (
          <EmptyState>No flows yet.{writable.length > 0 ? " Create the first one below." : ""}</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" aria-labelledby="flows-heading">
            {page.rows.map((flow) => (
              <li key={flow.id} className="space-y-1 px-4 py-3">
                <div className="flex flex-wrap items-center gap-2">
                  <Link
                    href={`/flows/${flow.id}`}
                    className={`font-medium ${subtleLinkClass}`}
                  >
                    {flow.name}
                  </Link>
                  {flow.isDefault ? (
                    <span className="rounded-full border border-blue-300 bg-blue-50 px-2 py-0.5 text-xs font-medium text-blue-900">Default</span>
                  ) : null}
                  <span className="text-xs text-slate-600">{names.get(flow.organizationId) ?? `Organization #${flow.organizationId}`}</span>
                </div>
                <p className="text-sm text-slate-700">
                  <span className="sr-only">Steps: </span>
                  {flow.steps.map((s) => STEP_LABELS[s]).join(" → ")}
                </p>
              </li>
            ))}
          </ul>
        )}
        <NextPageLink path={PATH} cursor={cursor} nextCursor={page.nextCursor} label="Flows" />
      </Section>

      {writable.length > 0 ? (
        <Section id="new-flow-heading" title="New flow">
          <FlowForm
            action={createFlowAction}
            idPrefix="new-flow"
            initial={{ name: "", steps: ["review", "sign", "done"], isDefault: false }}
            organizations={writable.map((o) => ({ id: o.id, name: o.name }))}
            submitLabel="Create flow"
            pendingLabel="Creating…"
          />
        </Section>
      ) : null}
    </div>
  );
}
