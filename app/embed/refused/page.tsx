import type { Metadata } from "next";
import { EmbedPoster } from "@/app/_components/embed/embed-poster";
import { embeddedOrigins } from "@/app/_components/embed/embedded";

export const metadata: Metadata = { title: "Signing cannot open" };

const REASONS = {
  used: "This signing link has already been used. Each link opens once.",
  expired: "This signing link has expired. Links work for five minutes.",
  closed: "This package can no longer be signed here: it was completed, cancelled or declined, or signing from this site was turned off.",
  unknown: "This signing link is not valid.",
  origin: "This site is not on the lender's list of sites allowed to show signing. The link was not used: it still opens from the lender's own site.",
} as const;

type Reason = keyof typeof REASONS;

/**
 * Where an embedded signing URL that opens nothing lands (`app/embed/[token]/route.ts`): the reason,
 * and, inside an allowed frame, an `error` message to the parent so the lender's site can open a new
 * URL. Framable only by the organization's origins (unknown tokens: by nobody).
 */
export default async function EmbedRefusedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const value = (await searchParams).reason;
  const reason: Reason = typeof value === "string" && value in REASONS ? (value as Reason) : "unknown";
  const origins = await embeddedOrigins();
  return (
    <main id="main" className="mx-auto max-w-xl space-y-3 px-4 py-8">
      <h1 className="text-xl font-semibold text-gray-900">Signing cannot open</h1>
      <p className="text-gray-800">{REASONS[reason]}</p>
      <p className="text-gray-800">Go back to the page you came from and start signing again: it opens a new link.</p>
      {origins ? <EmbedPoster origins={origins} signingId={null} events={["error"]} reason={reason} /> : null}
    </main>
  );
}
