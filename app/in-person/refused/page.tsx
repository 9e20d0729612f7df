import type { Metadata } from "next";

export const metadata: Metadata = { title: "Signing in person cannot start" };

const REASONS = {
  used: "This in-person signing link has already been used. Each link opens once.",
  expired: "This in-person signing link has expired. Links work for five minutes.",
  closed: "This package can no longer be signed: it was completed, cancelled or declined, or this signer has already finished.",
  unknown: "This in-person signing link is not valid.",
  host: "The person who asked for this link can no longer host signing for this package.",
  browser: "Open this link in the browser of the device at the desk. It was not used: it still opens there within its five minutes.",
} as const;

type Reason = keyof typeof REASONS;

/** Where an in-person signing URL that opens nothing lands (`app/in-person/[token]/route.ts`): the reason, and what the host does next. */
export default async function InPersonRefusedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const value = (await searchParams).reason;
  const reason: Reason = typeof value === "string" && value in REASONS ? (value as Reason) : "unknown";
  return (
    <main id="main" className="mx-auto max-w-xl space-y-3 px-4 py-8">
      <h1 className="text-xl font-semibold text-gray-900">Signing in person cannot start</h1>
      <p className="text-gray-800">{REASONS[reason]}</p>
      {/* A link turned away unused (not a browser opening it) still opens; every other refusal needs a new link. */}
      {reason === "browser" ? null : (
        <p className="text-gray-800">Hand the device back to the person hosting the signing: they can start it again, which opens a new link.</p>
      )}
    </main>
  );
}
