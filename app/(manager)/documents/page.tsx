import type { Metadata } from "next";
import Link from "next/link";
import { ButtonLink } from "@/components/ui/button-link";
import { StatusBadge } from "@/components/status-badge";
import { chattelDocumentStatusEnum, chattelDocumentTypeEnum } from "@/db/schema";
import { ListDocumentsQuerySchema } from "@/lib/api/schemas/documents";
import { hasCapability } from "@/lib/auth/principal";
import { listChattelDocuments } from "@/lib/chattel-documents/list-chattel-documents";
import { requirePrincipal } from "../../_lib/require-principal";
import { DOCUMENT_STATUS_LABELS, DOCUMENT_TYPE_LABELS } from "./_components/document-labels";
import { controlClass, focusRing } from "@/components/ui/classes";
import { formatDateTime } from "@/lib/format";

export const metadata: Metadata = { title: "Documents" };

const PAGE_SIZE = 25;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function one(value: string | string[] | undefined): string | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  return v === undefined || v.trim() === "" ? undefined : v;
}

/** The list's URL with these filters (the view can be bookmarked or shared). */
function listHref(filters: { q?: string; status?: string; type?: string; cursor?: string }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `/documents?${query}` : "/documents";
}

export default async function DocumentsPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = await searchParams;
  const filters = { q: one(raw.q), status: one(raw.status), type: one(raw.type), cursor: one(raw.cursor) };
  const { db, principal } = await requirePrincipal(listHref(filters));

  if (!hasCapability(principal, "documents:read")) {
    return (
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Documents</h1>
        <p className="max-w-2xl text-sm text-slate-700">
          Chattel documents are kept by the managers of an organization. Your account has no manager role; ask your
          organization&apos;s administrator for one if you need to work on documents.
        </p>
      </div>
    );
  }

  const parsed = ListDocumentsQuerySchema.safeParse({ ...filters, limit: PAGE_SIZE });
  const query = parsed.success ? parsed.data : ListDocumentsQuerySchema.parse({ limit: PAGE_SIZE });
  const page = await listChattelDocuments(db, { principal, ...query });
  const canWrite = hasCapability(principal, "documents:write");
  const filtered = Boolean(query.q || query.status || query.type);
  const current = { q: query.q, status: query.status, type: query.type };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="space-y-1">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Documents</h1>
          <p className="max-w-2xl text-sm text-slate-700">
            Titles, certificates of origin, contracts and other paperwork about financed collateral, with their files,
            comments and the messages sent to borrowers and dealers.
          </p>
        </div>
        {canWrite ? (
          <ButtonLink href="/documents/new" variant="primary">
            New document
          </ButtonLink>
        ) : null}
      </div>

      <search aria-label="Filter documents">
        <form method="get" action="/documents" className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm md:grid-cols-[2fr_1fr_1fr_auto] md:items-end">
          <div className="space-y-1">
            <label htmlFor="documents-q" className="block text-sm font-medium text-slate-900">
              Search
            </label>
            <input
              id="documents-q"
              name="q"
              type="search"
              defaultValue={filters.q ?? ""}
              maxLength={200}
              placeholder="Title, borrower or serial number"
              className={controlClass}
            />
          </div>
          <div className="space-y-1">
            <label htmlFor="documents-status" className="block text-sm font-medium text-slate-900">
              Status
            </label>
            <select id="documents-status" name="status" defaultValue={query.status ?? ""} className={controlClass}>
              <option value="">Any status</option>
              {chattelDocumentStatusEnum.enumValues.map((s) => (
                <option key={s} value={s}>
                  {DOCUMENT_STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1">
            <label htmlFor="documents-type" className="block text-sm font-medium text-slate-900">
              Type
            </label>
            <select id="documents-type" name="type" defaultValue={query.type ?? ""} className={controlClass}>
              <option value="">Any type</option>
              {chattelDocumentTypeEnum.enumValues.map((t) => (
                <option key={t} value={t}>
                  {DOCUMENT_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </div>
          <div className="flex gap-2">
            <button type="submit" className={`rounded-md bg-blue-700 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-blue-800 ${focusRing}`}>
              Search
            </button>
            {filtered ? (
              <Link href="/documents" className="rounded-md px-3 py-2.5 text-sm font-medium text-blue-800 underline-offset-2 hover:underline">
                Clear
              </Link>
            ) : null}
          </div>
        </form>
      </search>

      {!parsed.success ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          Some filters in the address were not valid and were ignored.
        </p>
      ) : null}

      <section aria-labelledby="documents-results" className="space-y-3">
        <h2 id="documents-results" className="sr-only">
          Results
        </h2>
        {page.rows.length === 0 ? (
          <div className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">
            {filtered ? (
              <p>No document matches this search. Try fewer words or clear the filters.</p>
            ) : (
              <p>No documents yet.{canWrite ? " Create one to track its paperwork, files and outreach." : ""}</p>
            )}
          </div>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-left text-sm">
              <caption className="sr-only">Documents{filtered ? " matching the search" : ""}</caption>
              <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-3">Title</th>
                  <th scope="col" className="px-4 py-3">Status</th>
                  <th scope="col" className="px-4 py-3">Type</th>
                  <th scope="col" className="px-4 py-3">Borrower</th>
                  <th scope="col" className="hidden px-4 py-3 lg:table-cell">Serial</th>
                  <th scope="col" className="hidden px-4 py-3 lg:table-cell">Updated</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {page.rows.map((d) => (
                  <tr key={d.id}>
                    <th scope="row" className="px-4 py-3 font-medium">
                      <Link href={`/documents/${d.id}`} className="text-blue-800 underline-offset-2 hover:underline">
                        {d.title}
                      </Link>
                    </th>
                    <td className="px-4 py-3">
                      <StatusBadge status={d.status} />
                    </td>
                    <td className="px-4 py-3 text-slate-700">{DOCUMENT_TYPE_LABELS[d.type]}</td>
                    <td className="px-4 py-3 text-slate-700">{d.borrowerName ?? d.borrowerEmail ?? "—"}</td>
                    <td className="hidden px-4 py-3 font-mono text-xs text-slate-700 lg:table-cell">{d.collateralSerial ?? "—"}</td>
                    <td className="hidden whitespace-nowrap px-4 py-3 text-slate-700 lg:table-cell">{formatDateTime(d.updatedAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <nav aria-label="Pages" className="flex flex-wrap gap-3 text-sm">
          {query.cursor ? (
            <Link href={listHref(current)} className="font-medium text-blue-800 underline-offset-2 hover:underline">
              First page
            </Link>
          ) : null}
          {page.nextCursor ? (
            <Link href={listHref({ ...current, cursor: page.nextCursor })} className="font-medium text-blue-800 underline-offset-2 hover:underline">
              Next page
            </Link>
          ) : null}
          {page.cap !== undefined ? (
            <span className="text-slate-700">Admin view: at most {page.cap} documents are listed.</span>
          ) : null}
        </nav>
      </section>
    </div>
  );
}
