import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { canAccess, hasCapability } from "@/lib/auth/principal";
import { getFlowOrThrow } from "@/lib/flows/get-flow-or-throw";
import { isUuid } from "@/lib/ids";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { PageHeader } from "@/components/ui/page-header";
import { Section } from "@/components/ui/section";
import { updateFlowAction } from "../actions";
import { FlowForm } from "../_components/flow-form";
import { STEP_LABELS } from "../step-labels";

export const metadata: Metadata = { title: "Flow" };

export default async function FlowPage({ params }: { params: Promise<{ id: string }> }) {
  const id = (await params).id;
  const { db, principal } = await requirePrincipal(`/flows/${encodeURIComponent(id)}`);
  if (!isUuid(id) || !hasCapability(principal, "flows:read")) notFound();
  const flow = await loadOr404(getFlowOrThrow(db, { principal, flowId: id, capability: "flows:read" }));
  const canEdit = canAccess(principal, "flows:write", { organizationId: flow.organizationId });

  return (
    <div className="space-y-6">
      <PageHeader crumbs={[{ href: "/flows", label: "Flows" }]} title={flow.name}>
        {flow.isDefault ? "The organization's default flow. " : ""}A change applies to every package that follows this flow, including
        packages already sent.
      </PageHeader>
      {canEdit ? (
        <Section id="flow-details-heading" title="Name and steps">
          <FlowForm
            action={updateFlowAction.bind(null, flow.id)}
            idPrefix="flow"
            initial={{ name: flow.name, steps: flow.steps, isDefault: flow.isDefault }}
            submitLabel="Save flow"
            pendingLabel="Saving…"
          />
        </Section>
      ) : (
        <Section id="flow-steps-heading" title="Steps">
          <ol className="list-decimal space-y-1 pl-6 text-sm text-slate-800">
            {flow.steps.map((step) => (
              <li key={step}>{STEP_LABELS[step]}</li>
            ))}
          </ol>
        </Section>
      )}
    </div>
  );
}
