import type { Metadata } from "next";
import Link from "next/link";
import { linkClass } from "@/components/ui/classes";
import { getInPersonCandidates } from "@/lib/in-person/start-in-person-signing";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { requirePrincipal } from "../../../../_lib/require-principal";
import { InPersonForm } from "./in-person-form";

export const metadata: Metadata = { title: "Sign in person" };

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ signer?: string }> };

/**
 * A manager hosts a signer at the desk: checks their identification, records it, and hands over the
 * device, which then opens only that signer's package. Tablet-first (768 px), usable on a desktop.
 */
export default async function InPersonPage({ params, searchParams }: Props) {
  const { id } = await params;
  const { signer: preselected } = await searchParams;
  const { db, principal } = await requirePrincipal(`/signings/${id}/in-person`);
  const candidates = await loadOr404(getInPersonCandidates(db, { principal, packageId: id }), { forbiddenToo: true });
  const startable = candidates.signers.filter((s) => s.canStart);

  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <header className="space-y-2">
        <p className="text-sm">
          <Link href={`/signings/${id}`} className={linkClass}>
            ← {candidates.title}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Sign in person</h1>
        <p className="text-sm text-slate-700">
          For a signer in front of you. Check their identification, record it here, then hand them this device: it opens their package and nothing
          else. You are signed out on this device until you sign in again when it comes back. The audit trail and the certificate say the signer signed in
          person, hosted by you ({principal.user.name}), with the identification you record.
        </p>
      </header>
      {!candidates.open ? (
        <p role="status" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800">
          This package is not open for signing, so nobody can sign it in person.
        </p>
      ) : startable.length === 0 ? (
        <p role="status" className="rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800">
          Every signer has already signed or declined.
        </p>
      ) : (
        <InPersonForm signingId={id} signers={startable.map((s) => ({ id: s.id, label: `${s.name} (${s.email})` }))} preselected={preselected} />
      )}
    </div>
  );
}
