import type { Metadata } from "next";
import Link from "next/link";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { hasCapability } from "@/lib/auth/principal";
import { listOrganizations } from "@/lib/organizations/list-organizations";
import { cursorParam, listFromCursor } from "../_shared/list-cursor";
import { NextPageLink } from "../_shared/next-page-link";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState, Section } from "@/components/ui/section";
import { createOrganizationAction } from "./actions";
import { NameForm } from "./_components/name-form";
import { subtleLinkClass } from "@/components/ui/classes";

export const metadata: Metadata = { title: "Places" };

const PATH = "/places";

export default async function PlacesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { db, principal } = await requirePrincipal(PATH);
  if (!hasCapability(principal, "organizations:read")) {
    return (
      <PageHeader title="Places">
        Organizations, companies and locations are managed by lenders&apos; managers. Your account has no manager role; ask your
        organization&apos;s administrator if you need one.
      </PageHeader>
    );
  }
  const cursor = cursorParam((await searchParams).cursor);
  const page = await listFromCursor((c) => listOrganizations(db, { principal, limit: 25, cursor: c }), cursor);
  const canCreate = hasCapability(principal, "organizations:write");

  return (
    <div className="space-y-6">
      <PageHeader title="Places">
        Where packages are made: each organization holds companies, each company its locations (branches). Open an organization to
        see its companies, a company to see its locations.
      </PageHeader>

      <Section id="organizations-heading" title="Organizations">
        {page.rows.length === 0 ? (
          <EmptyState>You have no role in any organization yet.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-md border border-slate-200" aria-labelledby="organizations-heading">
            {page.rows.map((organization) => (
              <li key={organization.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <Link
                  href={`/places/organizations/${organization.id}`}
                  className={`font-medium ${subtleLinkClass}`}
                >
                  {organization.name}
                </Link>
                <span className="font-mono text-xs text-slate-600">{organization.slug}</span>
              </li>
            ))}
          </ul>
        )}
        {page.cap !== undefined && !page.nextCursor && page.rows.length > 0 ? (
          <p className="text-xs text-slate-600">Admin read access shows at most {page.cap} organizations.</p>
        ) : null}
        <NextPageLink path={PATH} cursor={cursor} nextCursor={page.nextCursor} label="Organizations" />
      </Section>

      {canCreate ? (
        <Section id="new-organization-heading" title="New organization">
          <p className="text-sm text-slate-700">You become its organization administrator.</p>
          <NameForm action={createOrganizationAction} idPrefix="new-organization" label="Organization name" withSlug submitLabel="Create organization" pendingLabel="Creating…" />
        </Section>
      ) : null}
    </div>
  );
}
