// Button and ButtonLink are client components; buttonClass() cannot be called from a server component.
import { Button } from "@/components/ui/button";
import { ButtonLink } from "@/components/ui/button-link";
import { InputField, SelectField } from "@/components/ui/field";
import type { ListQuery } from "../list-view";

type Option = { id: number; name: string };

/**
 * Search and filters as a plain GET form: the view lands in the URL (bookmark, share, back button)
 * and works without JavaScript. The status tab is kept; paging restarts.
 */
export function FiltersForm({ query, locations, companies }: { query: ListQuery; locations: Option[]; companies: Option[] }) {
  const active = Boolean(query.q || query.locationId || query.companyId || query.createdFrom || query.createdTo);
  return (
    <form method="get" action="/signings" role="search" aria-label="Filter packages" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      {query.status ? <input type="hidden" name="status" value={query.status} /> : null}
      <div className="grid gap-3 md:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_1fr]">
        <InputField id="filter-q" name="q" type="search" label="Search" placeholder="Title or signer's name" defaultValue={query.q ?? ""} maxLength={200} />
        <SelectField id="filter-location" name="locationId" label="Location" defaultValue={query.locationId ? String(query.locationId) : ""}>
          <option value="">All locations</option>
          {locations.map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </SelectField>
        <SelectField id="filter-company" name="companyId" label="Company" defaultValue={query.companyId ? String(query.companyId) : ""}>
          <option value="">All companies</option>
          {companies.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <InputField id="filter-from" name="createdFrom" type="date" label="Created from" defaultValue={query.createdFrom ?? ""} />
        <InputField id="filter-to" name="createdTo" type="date" label="Created to" defaultValue={query.createdTo ?? ""} />
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Button type="submit">Apply filters</Button>
        {active ? (
          <ButtonLink href={query.status ? `/signings?status=${query.status}` : "/signings"} variant="ghost">
            Clear filters
          </ButtonLink>
        ) : null}
      </div>
    </form>
  );
}
