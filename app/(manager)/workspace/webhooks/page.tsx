import type { Metadata } from "next";
import Link from "next/link";
import { AppError } from "@/lib/errors";
import { formatShortDateTime } from "@/lib/format";
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/event-types";
import { listWebhookDeliveries, type WebhookDeliveryJson } from "@/lib/webhooks/list-webhook-deliveries";
import { listWebhookEndpoints } from "@/lib/webhooks/list-webhook-endpoints";
import { loadWorkspace, workspaceHref } from "../_components/load-workspace";
import { NotAnAdmin, WorkspaceHeader } from "../_components/workspace-header";
import { AddEndpointForm } from "./_components/add-endpoint-form";
import { EndpointActions } from "./_components/endpoint-actions";
import { ReplayButton } from "./_components/replay-button";

export const metadata: Metadata = { title: "Webhooks" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATUS_STYLES: Record<string, string> = {
  active: "bg-green-100 text-green-900",
  paused: "bg-slate-200 text-slate-900",
  disabled: "bg-red-100 text-red-900",
  succeeded: "bg-green-100 text-green-900",
  pending: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-900",
  cancelled: "bg-slate-200 text-slate-900",
};
const DELIVERY_STATUSES = ["pending", "succeeded", "failed", "cancelled"] as const;

function Badge({ status }: { status: string }) {
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLES[status] ?? ""}`}>{status}</span>;
}

/** An organization's outbound webhook endpoints for its admins: add, pause, test, rotate, delete, and one endpoint's delivery log with replays. */
export default async function WebhooksPage({ searchParams }: Props) {
  const params = await searchParams;
  const { db, principal, organization, organizations } = await loadWorkspace("webhooks", "settings:read", params);
  if (!organization) return <NotAnAdmin what="webhooks" />;

  const endpoints = await listWebhookEndpoints(db, { principal, organizationId: organization.id });
  const canWrite = principal.capabilities.includes("settings:write");
  const selected = endpoints.find((e) => e.id === params.endpoint) ?? null;
  const statusFilter = DELIVERY_STATUSES.find((s) => s === params.status);
  const cursor = typeof params.cursor === "string" ? params.cursor : undefined;
  let deliveries: { rows: WebhookDeliveryJson[]; nextCursor: string | null } | null = null;
  let logError: string | null = null;
  if (selected) {
    try {
      deliveries = await listWebhookDeliveries(db, { principal, endpointId: selected.id, status: statusFilter, limit: 25, cursor });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      logError = error.message;
    }
  }
  const eventTypes = WEBHOOK_EVENT_TYPES.filter((t) => t !== "webhook.test").map((type) => ({ type, description: WEBHOOK_EVENT_DESCRIPTIONS[type] }));
  const logHref = (endpointId: string, extra: Record<string, string> = {}) => workspaceHref("webhooks", organization.id, { endpoint: endpointId, ...extra });

  return (
    <>
      <WorkspaceHeader tab="webhooks" organization={organization} organizations={organizations} />
      <div className="space-y-8">
        <p className="max-w-3xl text-slate-700">
          Your systems hear what happens (a package sent, a document signed, a scanback received) as signed HTTPS requests, verified with the
          Standard Webhooks libraries. Failed deliveries are retried for about three days.
        </p>
        {canWrite ? <AddEndpointForm organizationId={organization.id} eventTypes={eventTypes} /> : null}
        <section aria-labelledby="endpoints-heading" className="space-y-3">
          <h2 id="endpoints-heading" className="text-lg font-semibold text-slate-900">
            Endpoints
          </h2>
          {endpoints.length === 0 ? (
            <p className="text-slate-700">No endpoint yet.</p>
          ) : (
            <ul className="space-y-3">
              {endpoints.map((e) => {
                const label = e.description || e.url;
                return (
                  <li key={e.id} data-testid="webhook-endpoint" className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                    <div className="flex flex-wrap items-baseline justify-between gap-2">
                      <div>
                        <p className="font-medium text-slate-900">{label}</p>
                        <p className="break-all font-mono text-sm text-slate-700">{e.url}</p>
                      </div>
                      <Badge status={e.status} />
                    </div>
                    {e.disabledReason ? <p className="text-sm text-red-800">Disabled: {e.disabledReason}</p> : null}
                    <p className="text-sm text-slate-700">Receives: {e.eventTypes.length === 0 ? "every event" : e.eventTypes.join(", ")}</p>
                    {e.previousSecretExpiresAt ? (
                      <p className="text-sm text-slate-700">The previous secret also signs until {formatShortDateTime(e.previousSecretExpiresAt)}.</p>
                    ) : null}
                    <div className="flex flex-wrap items-center gap-4">
                      <Link href={logHref(e.id)} className="font-medium text-blue-800 underline underline-offset-2" aria-current={selected?.id === e.id ? "page" : undefined}>
                        Delivery log<span className="sr-only"> of {label}</span>
                      </Link>
                    </div>
                    {canWrite ? <EndpointActions endpointId={e.id} label={label} status={e.status} /> : null}
                  </li>
                );
              })}
            </ul>
          )}
        </section>
        {selected ? (
          <section aria-labelledby="log-heading" className="space-y-3">
            <h2 id="log-heading" className="text-lg font-semibold text-slate-900">
              Delivery log: {selected.description || selected.url}
            </h2>
            <form method="get" action="/workspace/webhooks" className="flex items-end gap-2">
              <input type="hidden" name="organizationId" value={organization.id} />
              <input type="hidden" name="endpoint" value={selected.id} />
              <div className="space-y-1">
                <label htmlFor="log-status" className="block text-sm font-medium text-slate-900">
                  Status
                </label>
                <select id="log-status" name="status" defaultValue={statusFilter ?? ""} className="rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900">
                  <option value="">All</option>
                  {DELIVERY_STATUSES.map((s) => (
                    <option key={s} value={s}>
                      {s}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="rounded-md border border-slate-400 bg-white px-3 py-2 text-sm font-medium text-slate-900">
                Filter
              </button>
            </form>
            {logError ? <p className="text-red-800">{logError}</p> : null}
            {deliveries && deliveries.rows.length === 0 ? <p className="text-slate-700">No deliveries yet.</p> : null}
            {deliveries && deliveries.rows.length > 0 ? (
              <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
                <table className="min-w-full divide-y divide-slate-200 text-sm">
                  <caption className="sr-only">Deliveries, newest first</caption>
                  <thead className="bg-slate-50 text-left text-slate-700">
                    <tr>
                      <th scope="col" className="px-4 py-3 font-semibold">Event</th>
                      <th scope="col" className="px-4 py-3 font-semibold">Status</th>
                      <th scope="col" className="px-4 py-3 font-semibold">Attempts</th>
                      {canWrite ? <th scope="col" className="px-4 py-3 font-semibold">Actions</th> : null}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-200">
                    {deliveries.rows.map((d) => (
                      <tr key={d.id} data-testid="webhook-delivery">
                        <th scope="row" className="px-4 py-3 text-left font-normal">
                          <code className="block text-slate-900">{d.eventType}</code>
                          <span className="block text-xs text-slate-600">{formatShortDateTime(d.createdAt)}</span>
                        </th>
                        <td className="px-4 py-3">
                          <Badge status={d.status} />
                          {d.nextAttemptAt ? <span className="mt-1 block text-xs text-slate-600">next try {formatShortDateTime(d.nextAttemptAt)}</span> : null}
                        </td>
                        <td className="px-4 py-3">
                          <ol className="space-y-1">
                            {d.attempts.map((a) => (
                              <li key={a.attempt}>
                                #{a.attempt}: {a.statusCode ?? "no answer"} in {a.durationMs} ms{a.error && a.statusCode === null ? ` (${a.error})` : ""}
                                {a.responseBody ? <code className="block max-w-md truncate text-xs text-slate-600">{a.responseBody}</code> : null}
                              </li>
                            ))}
                          </ol>
                        </td>
                        {canWrite ? (
                          <td className="px-4 py-3">
                            {selected.status === "active" ? <ReplayButton endpointId={selected.id} eventId={d.eventId} eventType={d.eventType} /> : null}
                          </td>
                        ) : null}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ) : null}
            {deliveries?.nextCursor ? (
              <Link href={logHref(selected.id, { cursor: deliveries.nextCursor, ...(statusFilter ? { status: statusFilter } : {}) })} className="font-medium text-blue-800 underline underline-offset-2">
                Older deliveries
              </Link>
            ) : null}
          </section>
        ) : null}
      </div>
    </>
  );
}
