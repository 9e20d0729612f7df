import type { Metadata } from "next";
import Link from "next/link";
import { hasCapability } from "@/lib/auth/principal";
import { listSignings } from "@/lib/signings/list-signings";
import { requirePrincipal } from "../../../_lib/require-principal";
import { listPlaceOptions } from "../_components/place-options";
import { DocumentForm } from "./_components/document-form";

export const metadata: Metadata = { title: "New document" };

export default async function NewDocumentPage() {
  const { db, principal } = await requirePrincipal("/documents/new");
  if (!hasCapability(principal, "documents:write")) {
    return (
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">New document</h1>
        <p className="max-w-2xl text-sm text-slate-700">
          Creating documents needs a manager role in an organization; your account can only read them.{" "}
          <Link href="/documents" className="font-medium text-blue-800 underline">
            Back to documents
          </Link>
        </p>
      </div>
    );
  }
  const [places, packages] = await Promise.all([
    listPlaceOptions(db, principal),
    hasCapability(principal, "signings:read") ? listSignings(db, { principal, limit: 100 }) : { rows: [] },
  ]);

  return (
    <div className="max-w-3xl space-y-6">
      <div className="space-y-1">
        <p className="text-sm">
          <Link href="/documents" className="font-medium text-blue-800 underline-offset-2 hover:underline">
            Documents
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">New document</h1>
        <p className="text-sm text-slate-700">
          Record the paperwork you expect for a loan: where it belongs, who the borrower and dealer are, and the
          collateral. Files, comments and outreach come next, on the document&apos;s page.
        </p>
      </div>
      <DocumentForm
        places={places}
        packages={packages.rows.map((p) => ({ id: p.id, label: `${p.title} (${p.status.replace(/_/g, " ")})` }))}
      />
    </div>
  );
}
