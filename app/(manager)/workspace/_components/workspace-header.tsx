import Link from "next/link";
import { buttonClass } from "@/components/ui/button-class";
import { workspaceHref, type WorkspaceTab } from "./load-workspace";
import { focusRing } from "@/components/ui/classes";

const TABS: { tab: WorkspaceTab; label: string }[] = [
  { tab: "members", label: "Members" },
  { tab: "settings", label: "Settings" },
  { tab: "webhooks", label: "Webhooks" },
  { tab: "billing", label: "Billing" },
];

/**
 * The workspace's heading, its tabs (links that keep the organization) and, for someone who
 * administers several organizations, a picker: a GET form, so it works before hydration.
 */
export function WorkspaceHeader({
  tab,
  organization,
  organizations,
}: {
  tab: WorkspaceTab;
  organization: { id: number; name: string };
  organizations: { id: number; name: string }[];
}) {
  return (
    <div className="mb-6 space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <p className="text-sm font-medium text-slate-600">Workspace</p>
          <h1 className="text-2xl font-semibold text-slate-900">{organization.name}</h1>
        </div>
        {organizations.length > 1 ? (
          <form method="get" action={`/workspace/${tab}`} className="flex items-end gap-2">
            <div className="space-y-1">
              <label htmlFor="workspace-organization" className="block text-sm font-medium text-slate-900">
                Organization
              </label>
              <select
                id="workspace-organization"
                name="organizationId"
                defaultValue={organization.id}
                className="rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 focus:outline-2 focus:outline-blue-600"
              >
                {organizations.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={buttonClass("secondary")}>
              Switch
            </button>
          </form>
        ) : null}
      </div>
      <nav aria-label="Workspace">
        <ul className="flex gap-1 border-b border-slate-200">
          {TABS.map(({ tab: t, label }) => (
            <li key={t}>
              <Link
                href={workspaceHref(t, organization.id)}
                aria-current={t === tab ? "page" : undefined}
                className={`-mb-px inline-block border-b-2 px-4 py-2 text-sm font-medium ${focusRing} ${
                  t === tab ? "border-blue-700 text-blue-800" : "border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900"
                }`}
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/** What someone who does not administer an organization sees instead of an error page. */
export function NotAnAdmin({ what }: { what: string }) {
  return (
    <div className="max-w-2xl space-y-3">
      <h1 className="text-2xl font-semibold text-slate-900">Workspace</h1>
      <p className="text-slate-700">
        Only an organization admin can manage {what}. Ask an admin of your organization if you need a change.
      </p>
      <p>
        <Link href="/" className="font-medium text-blue-800 underline underline-offset-2">
          Back to home
        </Link>
      </p>
    </div>
  );
}
