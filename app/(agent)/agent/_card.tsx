import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";

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
export async function AgentLinkEnded() {
  const t = await getTranslations("agent");
  return (
    <AgentCard heading={t("endedHeading")}>
      <p>{t("endedBody")}</p>
    </AgentCard>
  );
}
