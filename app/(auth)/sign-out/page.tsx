import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { isClerkWebConfigured } from "@/lib/env";
import { getPagePrincipal } from "../../_lib/require-principal";
import { ClerkSignOutButton } from "./clerk-sign-out-button";
import { SignOutButton } from "./sign-out-button";
import { focusRing } from "@/components/ui/classes";

export const metadata: Metadata = { title: "Sign out" };

export default async function SignOutPage() {
  const { principal } = await getPagePrincipal();
  if (!principal) redirect("/sign-in");
  return (
    <section aria-labelledby="sign-out-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 id="sign-out-heading" className="text-2xl font-semibold tracking-tight text-slate-900">
        Sign out?
      </h1>
      <p className="mt-2 text-sm text-slate-700">
        You are signed in as <span className="font-medium text-slate-900">{principal.user.name}</span> ({principal.user.email}).
      </p>
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Link
          href="/"
          className={`rounded-md border border-slate-300 px-4 py-2.5 text-center text-sm font-medium text-slate-800 hover:bg-slate-50 ${focusRing}`}
        >
          Cancel
        </Link>
        {isClerkWebConfigured() ? <ClerkSignOutButton /> : <SignOutButton />}
      </div>
    </section>
  );
}
