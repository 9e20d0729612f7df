import type { Metadata } from "next";
import Link from "next/link";
import { hasCapability } from "@/lib/auth/principal";
import { requirePrincipal } from "../../../_lib/require-principal";
import { loadFormOptions } from "../_signing-form/load-form-options";
import { SigningForm } from "../_signing-form/signing-form";

export const metadata: Metadata = { title: "New package" };

export default async function NewSigningPage() {
  const { db, principal } = await requirePrincipal("/signings/new");
  if (!hasCapability(principal, "signings:write")) {
    return (
      <div className="max-w-2xl space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">New package</h1>
        <p className="text-slate-800">
          {hasCapability(principal, "signings:read") ? "Your role lets you read packages but not create them. " : ""}A manager of a location, company
          or organization creates packages.
        </p>
        {hasCapability(principal, "signings:read") ? (
          <Link href="/signings" className="text-blue-800 underline">
            Back to packages
          </Link>
        ) : null}
      </div>
    );
  }
  const options = await loadFormOptions(db, principal);
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">New package</h1>
        <Link href="/signings/bulk" className="text-sm text-blue-800 underline">
          Send many from a template (CSV)
        </Link>
      </div>
      <SigningForm {...options} documents={[]} initialValues={{}} />
    </div>
  );
}
