import type { Metadata } from "next";
import Link from "next/link";
import { listCompanies } from "@/lib/companies/list-companies";
import { listLocations } from "@/lib/locations/list-locations";
import { listOrganizationMembers } from "@/lib/workspace/list-organization-members";
import { serializeMembership } from "@/lib/workspace/serialize-membership";
import { loadWorkspace, workspaceHref } from "../_components/load-workspace";
import { NotAnAdmin, WorkspaceHeader } from "../_components/workspace-header";
import { InviteMemberForm, type ScopeOption } from "./_components/invite-member-form";
import { MemberActions } from "./_components/member-actions";

export const metadata: Metadata = { title: "Members" };

const PAGE_SIZE = 50;
const ROLE_LABELS: Record<string, string> = { org_admin: "Organization admin", manager: "Manager", signer: "Signer", admin: "Admin" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** Members of an organization for its admins: who has which role where, pending invitations, invite, change role, remove. */
export default async function MembersPage({ searchParams }: Props) {
  const params = await searchParams;
  const { db, principal, organization, organizations } = await loadWorkspace("members", "memberships:read", params);
  if (!organization) return <NotAnAdmin what="members" />;

  const cursor = typeof params.cursor === "string" ? params.cursor : undefined;
  const [page, companies, locations] = await Promise.all([
    listOrganizationMembers(db, { principal, organizationId: organization.id, limit: PAGE_SIZE, cursor }),
    listCompanies(db, { principal, organizationId: organization.id, limit: 200 }),
    listLocations(db, { principal, organizationId: organization.id, limit: 200 }),
  ]);
  const companyName = new Map(companies.rows.map((c) => [c.id, c.name]));
  const locationName = new Map(locations.rows.map((l) => [l.id, l.name]));
  const scopes: ScopeOption[] = [
    { value: "organization", label: `All of ${organization.name}` },
    ...companies.rows.map((c) => ({ value: `company:${c.id}`, label: `Company: ${c.name}` })),
    ...locations.rows.map((l) => ({ value: `location:${l.id}`, label: `Location: ${l.name} (${companyName.get(l.companyId) ?? "company"})` })),
  ];
  const members = page.rows.map(serializeMembership);
  const canWrite = principal.capabilities.includes("memberships:write");

  return (
    <>
      <WorkspaceHeader tab="members" organization={organization} organizations={organizations} />
      <div className="space-y-8">
        {canWrite ? <InviteMemberForm organizationId={organization.id} scopes={scopes} /> : null}
        <section aria-labelledby="members-heading" className="space-y-3">
          <h2 id="members-heading" className="text-lg font-semibold text-slate-900">
            Members and invitations
          </h2>
          {members.length === 0 ? (
            <p className="text-slate-700">Nobody here yet: invite the first member above.</p>
          ) : (
            <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
              <table className="min-w-full divide-y divide-slate-200 text-sm">
                <caption className="sr-only">Members of {organization.name}</caption>
                <thead className="bg-slate-50 text-left text-slate-700">
                  <tr>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Member
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Role
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Where
                    </th>
                    <th scope="col" className="px-4 py-3 font-semibold">
                      Status
                    </th>
                    {canWrite ? (
                      <th scope="col" className="px-4 py-3 font-semibold">
                        Actions
                      </th>
                    ) : null}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {members.map((m) => (
                    <tr key={m.id} data-testid="member-row">
                      <th scope="row" className="px-4 py-3 text-left font-normal">
                        <span className="block font-medium text-slate-900">{m.user.name}</span>
                        <span className="block text-slate-600">{m.user.email}</span>
                      </th>
                      <td className="px-4 py-3">{ROLE_LABELS[m.role] ?? m.role}</td>
                      <td className="px-4 py-3">
                        {m.locationId !== null
                          ? `Location: ${locationName.get(m.locationId) ?? m.locationId}`
                          : m.companyId !== null
                            ? `Company: ${companyName.get(m.companyId) ?? m.companyId}`
                            : "Whole organization"}
                      </td>
                      <td className="px-4 py-3">
                        {m.user.pending ? (
                          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900">Invitation pending</span>
                        ) : (
                          <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-900">Active</span>
                        )}
                        <span className="mt-1 block text-xs text-slate-600">since {new Date(m.createdAt).toISOString().slice(0, 10)}</span>
                      </td>
                      {canWrite ? (
                        <td className="px-4 py-3">
                          <MemberActions membershipId={m.id} name={m.user.name} role={m.role} />
                        </td>
                      ) : null}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <nav aria-label="Member pages" className="flex gap-3">
            {cursor ? (
              <Link href={workspaceHref("members", organization.id)} className="font-medium text-blue-800 underline underline-offset-2">
                First page
              </Link>
            ) : null}
            {page.nextCursor ? (
              <Link href={workspaceHref("members", organization.id, { cursor: page.nextCursor })} className="font-medium text-blue-800 underline underline-offset-2">
                Next page
              </Link>
            ) : null}
          </nav>
        </section>
      </div>
    </>
  );
}
