import type { ReactNode } from "react";

/** The one card of an agent page that is not the closing itself (the link's page, an ended link). */
export function AgentCard({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <section aria-labelledby="agent-heading" className="mx-auto max-w-md space-y-5 rounded-xl border border-slate-200 bg-white p-6 text-base text-slate-800 shadow-sm sm:p-8">
      <h1 id="agent-heading" className="text-2xl font-semibold tracking-tight text-slate-900">
        {heading}
      </h1>
      {children}
    </section>
  );
}

/** What a revoked, used, expired or unknown link — or an ended session — says: one answer, nothing about the package. */
export function AgentLinkEnded() {
  return (
    <AgentCard heading="This link no longer works">
      <p>
        The link was already used, has expired or was replaced by a newer one, or the closing is finished. Ask the lender or the closing team that
        sent it for a new link.
      </p>
    </AgentCard>
  );
}
