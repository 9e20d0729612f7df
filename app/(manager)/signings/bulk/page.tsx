import { randomUUID } from "node:crypto";
import type { Metadata } from "next";
import Link from "next/link";
import { hasCapability } from "@/lib/auth/principal";
import { requirePrincipal } from "../../../_lib/require-principal";
import { loadFormOptions } from "../_signing-form/load-form-options";
import { BulkForm } from "./_components/bulk-form";

export const metadata: Metadata = { title: "Bulk send" };

/** Its server action creates up to 500 packages (resumable when cut short): a serverless host allows it this many seconds (docs/deploy.md). */
export const maxDuration = 300;

export default async function BulkSigningsPage() {
  const { db, principal } = await requirePrincipal("/signings/bulk");
  if (!hasCapability(principal, "signings:write")) {
    return (
      <div className="max-w-2xl space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Bulk send</h1>
        <p className="text-slate-800">
          {hasCapability(principal, "signings:read") ? "Your role lets you read packages but not create them. " : ""}A manager creates and sends
          packages.
        </p>
      </div>
    );
  }
  const { templates, flows } = await loadFormOptions(db, principal);
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Bulk send from a template</h1>
        <p className="max-w-3xl text-sm text-slate-700">
          One package per row (or per <code className="rounded bg-slate-100 px-1 font-mono text-xs">package</code> value), each with the
          template&apos;s documents, sent at once. Every row is checked first: if one is wrong, nothing is created and the report says which
          to fix. Each package is created and sent whole or not at all.
        </p>
      </div>
      {templates.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-800">
          There is no template yet. A bulk run copies a template&apos;s documents into each package.{" "}
          {hasCapability(principal, "templates:write") ? (
            <>
              <Link href="/templates" className="text-blue-800 underline">
                Create a template
              </Link>{" "}
              first, or{" "}
            </>
          ) : null}
          <Link href="/signings/new" className="text-blue-800 underline">
            create a single package
          </Link>
          .
        </p>
      ) : (
        <BulkForm templates={templates} flows={flows} batchId={randomUUID()} />
      )}
    </div>
  );
}
