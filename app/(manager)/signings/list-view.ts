import type { z } from "zod";
import { ListSigningsQuerySchema } from "@/lib/api/schemas/signings";

export type ListQuery = z.output<typeof ListSigningsQuerySchema>;

/** The filters a view of the list keeps in its URL (everything but paging). */
export const FILTER_KEYS = ["status", "q", "locationId", "companyId", "createdFrom", "createdTo"] as const;

export const PAGE_SIZE = 25;

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * The list's URL parameters read with the same zod schema as `GET /v1/signing/manager/signings`.
 * A parameter that does not parse is dropped (the rest still apply) and reported, so a hand-edited
 * or stale bookmark shows a sentence instead of an error page.
 */
export function readListQuery(searchParams: SearchParams): { query: ListQuery; invalid: string[] } {
  const raw: Record<string, string> = {};
  for (const key of [...FILTER_KEYS, "cursor"]) {
    const value = searchParams[key];
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined && first.trim() !== "") raw[key] = first;
  }
  const invalid: string[] = [];
  for (;;) {
    const parsed = ListSigningsQuerySchema.safeParse({ ...raw, limit: PAGE_SIZE });
    if (parsed.success) return { query: parsed.data, invalid };
    const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])).filter((key) => key in raw));
    if (bad.size === 0) return { query: ListSigningsQuerySchema.parse({ limit: PAGE_SIZE }), invalid };
    for (const key of bad) {
      invalid.push(key);
      delete raw[key];
    }
  }
}

/** `/signings?…` for the given filters (and cursor); empty values are left out so URLs stay short. */
export function listHref(query: Partial<Record<(typeof FILTER_KEYS)[number] | "cursor", string | number | undefined>>): string {
  const params = new URLSearchParams();
  for (const key of [...FILTER_KEYS, "cursor"] as const) {
    const value = query[key];
    if (value !== undefined && value !== "") params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `/signings?${search}` : "/signings";
}
