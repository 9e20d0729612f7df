import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";
import { getAssignedSigning } from "@/lib/signings/get-assigned-signing";
import { getSigningConsent } from "@/lib/signings/get-signing-consent";
import { isOpenSigningStatus } from "@/lib/signings/state-machine";
import { requestEvidence } from "../../../_lib/request-evidence";
import { requirePrincipal } from "../../../_lib/require-principal";
import { SignPanel } from "./_components/sign-panel";

export const metadata: Metadata = { title: "Sign" };

// Placeholder for the sign teammate's work: the page teammate's package page replaces this file at
// merge. It renders only what SignPanel needs.
export default async function SigningPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { db, principal } = await requirePrincipal(`/signings/${encodeURIComponent(id)}`);
  const load = async () => {
    const view = await getAssignedSigning(db, { principal, packageId: id, ipAddress: (await requestEvidence()).ipAddress });
    return { view, consent: await getSigningConsent(db, { principal, packageId: id }) };
  };
  const loaded = await load().catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  const { view, consent } = loaded;
  const waitingFor = view.coSigners.filter((s) => s.routingOrder < view.me.routingOrder && s.status !== "signed");
  const open = isOpenSigningStatus(view.status) && view.me.status !== "declined";
  const disabledReason = !open
    ? `This package is ${view.status.replace("_", " ")}; it can no longer be signed.`
    : waitingFor.length > 0
      ? `Waiting for ${waitingFor.map((s) => s.name).join(" and ")} to sign first. We will email you when it is your turn.`
      : null;

  return (
    <main id="main" className="mx-auto max-w-2xl space-y-6 px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold text-slate-950">{view.title}</h1>
      <SignPanel
        signingId={view.id}
        signerName={view.me.name}
        consentGiven={consent !== null}
        canSign={disabledReason === null}
        disabledReason={disabledReason}
        documents={view.documents.map((d) => {
          const request = d.signatureRequests[0];
          return { id: d.id, name: d.name, sha256: d.sha256, signed: request?.status === "signed", signedAt: request?.signedAt ?? null };
        })}
      />
    </main>
  );
}
