import type { Metadata } from "next";
import { connection } from "next/server";
import { getTranslations } from "next-intl/server";
import { BrandHeader } from "@/components/brand/brand-header";
import { prepareDatabase } from "@/lib/boot";
import { viewAgentLink } from "@/lib/settlement-agent/open-agent-link";
import { primaryButton } from "@/components/ui/card-controls";
import { AgentCard, AgentLinkEnded } from "../_card";
import { openAgentLinkAction } from "./actions";

// The token is in the address: never send it on as a Referer, never index the page.
export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("agent");
  return { title: t("title"), referrer: "no-referrer", robots: { index: false, follow: false } };
}

/**
 * `/agent/<token>`, the link in the settlement agent's email. The GET only shows the package and one
 * button (mail scanners prefetch links: reading burns nothing); the button's POST opens the link.
 */
export default async function AgentLinkPage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const { db } = await prepareDatabase();
  const view = await viewAgentLink(db, { token });
  const t = await getTranslations("agent");
  if (view.state === "unusable") return <AgentLinkEnded />;
  return (
    <div className="mx-auto max-w-md space-y-4" style={{ ["--brand-color" as string]: view.brand.color }}>
      <div className="overflow-hidden rounded-xl border border-slate-200">
        <BrandHeader brand={view.brand} />
      </div>
      <AgentCard heading={view.title}>
        <p>{t.rich("linkIntro", { lender: view.lenderName, agent: view.agentName, strong: (chunks) => <strong>{chunks}</strong> })}</p>
        <form action={openAgentLinkAction}>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className={primaryButton}>
            {t("open")}
          </button>
        </form>
        <p className="text-sm text-slate-600">{t("linkOnce")}</p>
      </AgentCard>
    </div>
  );
}
