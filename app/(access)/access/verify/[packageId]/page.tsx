import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { effectiveAuthMethod } from "@/lib/signer-access/effective-auth-method";
import { ACCOUNT_SATISFIES } from "@/lib/signer-access/rules";
import { isSmsConfigured } from "@/lib/sms/send-sms";
import { currentSignerSession } from "@/lib/signer-access/session-cookie";
import { AccessCard, inputClass, primaryButton, secondaryButton } from "../../_card";
import { continueWithAccountAction, sendProofCodeAction, submitProofCodeAction } from "./actions";
import { isProofNotice, PROOF_NOTICES, proofPath } from "./proof-notices";

export const metadata: Metadata = { title: "Confirm it is you", referrer: "no-referrer", robots: { index: false, follow: false } };

type Props = { params: Promise<{ packageId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** "p•••@example.com": enough to recognise the address, not to learn it. */
function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}•••@${domain}`;
}

function maskPhone(phone: string | null): string {
  return phone ? `•••${phone.slice(-4)}` : "your phone";
}

/**
 * The proof step after a signer opened their link: the method the sender chose (or this signer's
 * override). A session that already passed goes on to the package; no session (ended, or another
 * browser) explains how to get back in.
 */
export default async function ProofPage({ params, searchParams }: Props) {
  await connection();
  const { packageId } = await params;
  const noticeKey = (await searchParams).notice;
  const notice = isProofNotice(noticeKey) ? PROOF_NOTICES[noticeKey] : null;
  const { db } = await prepareDatabase();
  const context = await currentSignerSession(db, packageId);
  if (!context) {
    return (
      <AccessCard heading="Open the link from your email">
        <p>
          Your session for this package has ended, or it was opened in another browser. Open the most recent email about it and follow its link; if that link no
          longer works, the page it opens can email you a new one.
        </p>
      </AccessCard>
    );
  }
  if (context.session.authPassedAt) redirect(`/signings/${packageId}`);
  const method = effectiveAuthMethod(context.signing, context.signer);
  const account = ACCOUNT_SATISFIES.includes(method) ? await getSessionPrincipal(db) : null;
  const accountMatches = account !== null && account.user.email.trim().toLowerCase() === context.signer.email.trim().toLowerCase();
  const hidden = <input type="hidden" name="packageId" value={packageId} />;
  const noticeLine = notice ? (
    <p role={notice.tone === "error" ? "alert" : "status"} className={notice.tone === "error" ? "rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-900" : "rounded-md border border-green-200 bg-green-50 px-3 py-2 text-green-900"}>
      {notice.text}
    </p>
  ) : null;
  const codeForm = (label: string, hint: string, numeric: boolean) => (
    <form action={submitProofCodeAction} className="space-y-3">
      {hidden}
      <div className="space-y-1">
        <label htmlFor="code" className="block text-sm font-medium text-slate-900">
          {label}
        </label>
        <input
          id="code"
          name="code"
          required
          autoComplete={numeric ? "one-time-code" : "off"}
          inputMode={numeric ? "numeric" : "text"}
          maxLength={numeric ? 9 : 100}
          aria-describedby="code-hint"
          aria-invalid={notice?.tone === "error" ? true : undefined}
          className={inputClass}
        />
        <p id="code-hint" className="text-sm text-slate-600">
          {hint}
        </p>
      </div>
      <button type="submit" className={primaryButton}>
        Continue
      </button>
    </form>
  );
  const continueAs = accountMatches ? (
    <form action={continueWithAccountAction}>
      {hidden}
      <button type="submit" className={secondaryButton}>
        Continue as {account!.user.email}
      </button>
    </form>
  ) : null;

  switch (method) {
    case "email_code":
      return (
        <AccessCard heading="Check your email for a code">
          {noticeLine}
          <p>We emailed a 6-digit code to {maskEmail(context.signer.email)}. It works for 10 minutes.</p>
          {codeForm("Code from the email", "Six digits, for example 123456.", true)}
          <form action={sendProofCodeAction}>
            {hidden}
            <button type="submit" className={secondaryButton}>
              Email me a new code
            </button>
          </form>
          {continueAs}
        </AccessCard>
      );
    case "sms_code":
      return (
        <AccessCard heading="Confirm it is you by text message">
          {noticeLine}
          {isSmsConfigured() ? (
            <>
              <p>We text a 6-digit code to {maskPhone(context.signer.phone)}. It works for 10 minutes.</p>
              <form action={sendProofCodeAction}>
                {hidden}
                <button type="submit" className={secondaryButton}>
                  Text me a code
                </button>
              </form>
              {codeForm("Code from the text message", "Six digits, for example 123456.", true)}
            </>
          ) : (
            <p role="alert">{PROOF_NOTICES.sms_off.text}</p>
          )}
        </AccessCard>
      );
    case "access_code":
      return (
        <AccessCard heading="Enter your access code">
          {noticeLine}
          <p>{context.signer.name}, the sender gave you an access code for this package (by phone or in person). Enter it to open the documents.</p>
          {codeForm("Access code", "If you do not have it, ask the sender: we cannot send it to you.", false)}
        </AccessCard>
      );
    case "account":
    case "link":
      return (
        <AccessCard heading="Sign in to open the documents">
          {noticeLine}
          <p>The sender asks you to sign in with the account for {maskEmail(context.signer.email)}.</p>
          {continueAs ?? (
            <Link href={`/sign-in?callbackUrl=${encodeURIComponent(proofPath(packageId))}`} className={primaryButton}>
              Sign in
            </Link>
          )}
        </AccessCard>
      );
  }
}
