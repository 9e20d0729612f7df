import type { Metadata } from "next";
import Link from "next/link";
import { SigningsTable } from "@/components/signings-table";
import { listSigningsForHome } from "@/lib/signings/list-signings-for-home";
import { requirePrincipal } from "../_lib/require-principal";

export const metadata: Metadata = { title: "Packages" };

export default async function HomePage() {
  const { db, principal } = await requirePrincipal("/");
  const { assigned, managed } = await listSigningsForHome(db, { principal });
  const firstName = principal.user.name.split(" ")[0] ?? principal.user.name;

  return (
    <div className="space-y-10">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Welcome, {firstName}</h1>

      <section aria-labelledby="assigned-heading" className="space-y-3">
        <h2 id="assigned-heading" className="text-lg font-semibold text-slate-900">
          Packages for you to sign
        </h2>
        {assigned.items.length > 0 ? (
          <SigningsTable caption="Signing packages assigned to you" items={assigned.items} showMyStatus testId="assigned-signings" />
        ) : (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">
            Nothing is waiting for your signature.
          </p>
        )}
        {assigned.truncated ? <p className="text-sm text-slate-700">Showing the {assigned.items.length} most recent.</p> : null}
      </section>

      {managed ? (
        <section aria-labelledby="managed-heading" className="space-y-3">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 id="managed-heading" className="text-lg font-semibold text-slate-900">
              {managed.reach === "all" ? "All signing packages" : "Your organization's signing packages"}
            </h2>
            <Link href="/signings" className="text-sm font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900">
              Open the packages list (status tabs, search, filters)
            </Link>
          </div>
          {managed.items.length > 0 ? (
            <SigningsTable
              caption={managed.reach === "all" ? "All signing packages" : "Signing packages you manage"}
              items={managed.items}
              testId="managed-signings"
            />
          ) : (
            <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">
              No signing packages yet.
            </p>
          )}
          {managed.truncated ? (
            <p className="text-sm text-slate-700">Showing the {managed.items.length} most recently updated packages.</p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
