import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ButtonLink } from "@/components/ui/button-link";
import { canAccess, hasCapability } from "@/lib/auth/principal";
import { listCompanies } from "@/lib/companies/list-companies";
import { AppError } from "@/lib/errors";
import { listLocations } from "@/lib/locations/list-locations";
import { countSigningsByStatus } from "@/lib/signings/count-signings-by-status";
import { listSignerProgress } from "@/lib/signings/list-signer-progress";
import { listSignings } from "@/lib/signings/list-signings";
import { requirePrincipal } from "../../_lib/require-principal";
import { FiltersForm } from "./_components/filters-form";
import { SigningsListTable, type ListRow } from "./_components/signings-list-table";
import { StatusTabs, TABS } from "./_components/status-tabs";
import { listHref, readListQuery } from "./list-view";

export const metadata: Metadata = { title: "Packages" };

const PLACE_OPTIONS_LIMIT = 100;

const FIELD_NAMES: Record<string, string> = {
  status: "status",
  q: "search",
  locationId: "location",
  companyId: "company",
  createdFrom: "created-from date",
  createdTo: "created-to date",
  cursor: "page link",
};

export default async function SigningsListPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { db, principal } = await requirePrincipal("/signings");
  if (!hasCapability(principal, "signings:read")) redirect("/");

  const { query, invalid } = readListQuery(await searchParams);
  const { status: _status, cursor: _cursor, limit: _limit, ...filters } = query;

  // Counts and the filters' options do not depend on the page of rows: they run beside the list.
  const beside = Promise.all([
    countSigningsByStatus(db, { principal, ...filters }),
    hasCapability(principal, "locations:read") ? listLocations(db, { principal, limit: PLACE_OPTIONS_LIMIT }) : null,
    hasCapability(principal, "companies:read") ? listCompanies(db, { principal, limit: PLACE_OPTIONS_LIMIT }) : null,
  ]);
  beside.catch(() => {}); // awaited below; this only keeps an early failure of the list from leaving it unhandled
  let page: Awaited<ReturnType<typeof listSignings>>;
  let pageError: string | null = null;
  try {
    page = await listSignings(db, { principal, ...query });
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 400) throw error;
    // A cursor from another secret or a hand-edited one: show the first page and say so.
    pageError = "That page link is no longer valid, so the list starts again from the newest package.";
    page = await listSignings(db, { principal, ...query, cursor: undefined });
  }
  const [signers, [counts, locations, companies]] = await Promise.all([listSignerProgress(db, { packageIds: page.rows.map((r) => r.id) }), beside]);

  const rows: ListRow[] = page.rows.map((row) => ({
    ...row,
    signers: signers.get(row.id) ?? [],
    canWrite: canAccess(principal, "signings:write", row),
  }));
  const canCreate = hasCapability(principal, "signings:write");
  const tab = TABS.find((t) => t.status === query.status) ?? TABS[TABS.length - 1]!;
  const organizations = new Set(rows.map((r) => r.organizationId));
  const filtered = Object.values(filters).some((v) => v !== undefined);

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Packages</h1>
        {canCreate ? (
          <ButtonLink href="/signings/new" variant="primary">
            New package
          </ButtonLink>
        ) : null}
      </div>

      {page.cap !== undefined ? (
        <p className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="admin-cap">
          <strong>Administrator view:</strong> you see packages of every organization, read-only. The list stops after the first{" "}
          {page.cap.toLocaleString("en-US")} packages of a view (the admin read cap); the counts cover all of them. Use the filters to
          reach others.
        </p>
      ) : null}

      {invalid.length > 0 || pageError ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
          {invalid.length > 0 ? (
            <p>
              Ignored an invalid {invalid.map((key) => FIELD_NAMES[key] ?? key).join(", ")} in the address; the other filters apply.
            </p>
          ) : null}
          {pageError ? <p>{pageError}</p> : null}
        </div>
      ) : null}

      <FiltersForm
        query={query}
        locations={(locations?.rows ?? []).map((l) => ({ id: l.id, name: l.name }))}
        companies={(companies?.rows ?? []).map((c) => ({ id: c.id, name: c.name }))}
      />

      <StatusTabs query={query} counts={counts} />

      <section aria-labelledby="results-heading" className="space-y-3">
        <h2 id="results-heading" className="sr-only">
          {tab.label} packages
        </h2>
        <p role="status" className="text-sm text-slate-700">
          {rows.length === 0
            ? `No ${tab.status ? `${tab.label.toLowerCase()} ` : ""}packages${filtered ? " match these filters" : ""}.`
            : `Showing ${rows.length} ${tab.status ? `${tab.label.toLowerCase()} ` : ""}${rows.length === 1 ? "package" : "packages"}${query.cursor ? " (older page)" : ""}${
                filtered ? " matching the filters" : ""
              }, newest first.`}
        </p>
        {rows.length > 0 ? (
          <SigningsListTable rows={rows} caption={`${tab.label} signing packages`} showOrganization={organizations.size > 1 || page.cap !== undefined} />
        ) : (
          <EmptyState status={tab.status} filtered={filtered} canCreate={canCreate} clearHref={listHref({ status: query.status })} />
        )}
        {query.cursor || page.nextCursor ? (
          <nav aria-label="Pages" className="flex flex-wrap items-center gap-2">
            {query.cursor ? (
              <ButtonLink href={listHref({ ...query, cursor: undefined })}>Newest packages</ButtonLink>
            ) : null}
            {page.nextCursor ? (
              <ButtonLink href={listHref({ ...query, cursor: page.nextCursor })} rel="next">
                Older packages
              </ButtonLink>
            ) : null}
          </nav>
        ) : null}
      </section>
    </div>
  );
}

const EMPTY_HINTS: Record<string, string> = {
  draft: "Drafts are packages being prepared. Start one with New package; it stays here until you send it.",
  sent: "Packages you send appear here until a signer opens them.",
  in_progress: "Packages move here once a signer has started signing.",
  completed: "Packages land here when every signer has signed.",
  declined: "Nothing declined. A package lands here when a signer declines it.",
  cancelled: "Nothing cancelled. Packages you cancel are kept here for the record.",
  expired: "Nothing expired. Sent packages whose deadline passes unsigned land here.",
  all: "No packages yet. Create one, add signers and documents, and send it.",
};

function EmptyState({ status, filtered, canCreate, clearHref }: { status?: string; filtered: boolean; canCreate: boolean; clearHref: string }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700" data-testid="empty-state">
      {filtered ? (
        <p>
          Nothing matches these filters.{" "}
          <Link href={clearHref} className="font-medium text-blue-800 underline underline-offset-2">
            Clear the filters
          </Link>{" "}
          to see every package in this tab.
        </p>
      ) : (
        <p>{EMPTY_HINTS[status ?? "all"]}</p>
      )}
      {canCreate && !filtered && (status === undefined || status === "draft") ? (
        <ButtonLink href="/signings/new" variant="primary" className="mt-4">
          New package
        </ButtonLink>
      ) : null}
    </div>
  );
}
