import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { getSignedDocumentLabels } from "@/lib/esignatures/get-signed-document-labels";
import { listMyESignatures } from "@/lib/esignatures/list-my-esignatures";
import { requirePrincipal } from "../../../_lib/require-principal";
import { formatDateTime } from "@/app/_lib/format";
import { focusRing } from "@/components/ui/classes";

export const metadata: Metadata = { title: "My signatures" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 25;
const CursorSchema = z.string().max(200).optional().catch(undefined);
const linkClass = `font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900 ${focusRing}`;

/** My records: every e-signature the signed-in person recorded, newest first (`listMyESignatures`). */
export default async function MyESignaturesPage({ searchParams }: Props) {
  const { db, principal } = await requirePrincipal("/me/esignatures");
  const cursor = CursorSchema.parse((await searchParams).cursor);
  let page;
  let badCursor = false;
  try {
    page = await listMyESignatures(db, { principal, limit: PAGE_SIZE, cursor });
  } catch (error) {
    // A hand-edited `?cursor=`: start again from the newest rather than failing.
    if (!(error instanceof AppError && error.code === "bad_request")) throw error;
    badCursor = true;
    page = await listMyESignatures(db, { principal, limit: PAGE_SIZE });
  }
  const labels = await getSignedDocumentLabels(db, { principal, documentIds: page.rows.map((r) => r.documentId) });

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">My signatures</h1>
      <p className="text-sm text-slate-700">Every document you signed electronically, with the evidence kept for it. Newest first.</p>
      {badCursor ? (
        <p role="status" className="text-sm text-slate-700">
          That page link was not valid, so the list starts from your newest signature.
        </p>
      ) : null}
      {page.rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">
          You have not signed anything yet. Packages waiting for you are on{" "}
          <Link href="/" className={linkClass}>
            your home page
          </Link>
          .
        </p>
      ) : (
        <ul aria-label="Your e-signatures" className="space-y-3">
          {page.rows.map((e) => {
            const label = labels.get(e.documentId);
            return (
              <li key={e.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                <p className="font-medium break-words text-slate-900">{label?.documentName ?? "Document"}</p>
                <p className="text-sm break-words text-slate-700">
                  {label ? (
                    <Link href={`/signings/${label.packageId}`} className={linkClass}>
                      {label.packageTitle}
                    </Link>
                  ) : null}
                </p>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-slate-700">Signed</dt>
                  <dd className="text-slate-900">
                    <time dateTime={e.createdAt.toISOString()}>{formatDateTime(e.createdAt)}</time>
                  </dd>
                  <dt className="text-slate-700">Signature</dt>
                  <dd className="break-words text-slate-900">{e.kind === "typed" ? `Typed: ${e.typedText ?? ""}` : "Drawn"}</dd>
                  <dt className="text-slate-700">Document fingerprint</dt>
                  <dd className="font-mono text-xs break-all text-slate-900" title="SHA-256 of the document you signed">
                    {e.documentSha256}
                  </dd>
                </dl>
              </li>
            );
          })}
        </ul>
      )}
      {page.nextCursor ? (
        <p>
          <Link href={`/me/esignatures?cursor=${encodeURIComponent(page.nextCursor)}`} className={linkClass}>
            Older signatures
          </Link>
        </p>
      ) : null}
    </div>
  );
}
