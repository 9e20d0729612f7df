import type { Metadata } from "next";
import Link from "next/link";
import { findInvite } from "@/lib/auth/find-invite";
import { INVITE_LINK_MESSAGES, INVITE_PASSWORD_MIN_LENGTH } from "@/lib/auth/invite-token-format";
import { prepareDatabase } from "@/lib/boot";
import { AcceptInviteForm } from "./accept-invite-form";
import { linkClass } from "@/components/ui/classes";

// The token is in the address: never send it on as a Referer, never index the page.
export const metadata: Metadata = { title: "Accept invitation", referrer: "no-referrer", robots: { index: false, follow: false } };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AcceptInvitePage({ searchParams }: Props) {
  const params = await searchParams;
  const token = (Array.isArray(params.token) ? params.token[0] : params.token) ?? "";
  const { db } = await prepareDatabase();
  const invite = await findInvite(db, { token });

  if (invite.status !== "valid") {
    return (
      <section aria-labelledby="accept-invite-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 id="accept-invite-heading" className="text-2xl font-semibold tracking-tight text-slate-900">
          Invitation link
        </h1>
        <p role="alert" className="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          {INVITE_LINK_MESSAGES[invite.status]}
        </p>
        <p className="mt-6 text-sm text-slate-700">
          <Link href="/sign-in" className={linkClass}>
            Go to sign in
          </Link>
        </p>
      </section>
    );
  }

  return (
    <AcceptInviteForm
      token={token.trim()}
      email={invite.email}
      organizationName={invite.organizationName}
      expiresAt={invite.expiresAt.toISOString()}
      minLength={INVITE_PASSWORD_MIN_LENGTH}
    />
  );
}
