import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { borrowerLocale } from "@/app/_lib/borrower-locale";
import { brandMarkOf, getOrganizationBranding } from "@/lib/branding/branding";
import { organizationDefaultLanguage, signerLocale } from "@/lib/i18n/signer-locale";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { effectiveAuthMethod } from "@/lib/signer-access/effective-auth-method";
import { ACCOUNT_SATISFIES } from "@/lib/signer-access/rules";
import { isSmsConfigured } from "@/lib/sms/send-sms";
import { currentLinkSession } from "@/lib/next/link-sessions";
import { AccessCard, BrandedAccessPage } from "../../_card";
import { inputClass, primaryButton, secondaryButton } from "@/components/ui/card-controls";
import { continueWithAccountAction, sendProofCodeAction, submitProofCodeAction } from "./actions";
import { isProofNotice, PROOF_NOTICES, proofPath } from "./proof-notices";

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  await connection();
  const { packageId } = await params;
  const { db } = await prepareDatabase();
  const context = await currentLinkSession(db, "signer", packageId);
  const lender = context ? signerLocale(context.signer, await organizationDefaultLanguage(db, context.signing.organizationId)) : null;
  const t = await getTranslations({ locale: await borrowerLocale(lender), namespace: "proof" });
  return { title: t("title"), referrer: "no-referrer", robots: { index: false, follow: false } };
}

type Props = { params: Promise<{ packageId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

/** "p•••@example.com": enough to recognise the address, not to learn it. */
function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}•••@${domain}`;
}

function maskPhone(phone: string | null, yourPhone: string): string {
  return phone ? `•••${phone.slice(-4)}` : yourPhone;
}

/**
 * The proof step after a signer opened their link: the method the sender chose (or this signer's
 * override). A session that already passed goes on to the package; no session (ended, or another
 * browser) explains how to get back in. In the borrower's language, under the lender's mark.
 */
export default async function ProofPage({ params, searchParams }: Props) {
  await connection();
  const { packageId } = await params;
  const noticeKey = (await searchParams).notice;
  const notice = isProofNotice(noticeKey) ? { key: noticeKey, ...PROOF_NOTICES[noticeKey] } : null;
  const { db } = await prepareDatabase();
  const context = await currentLinkSession(db, "signer", packageId);
  if (!context) {
    // No session tells nothing about the signer: the borrower's own choice, else English.
    const t = await getTranslations({ locale: await borrowerLocale(null), namespace: "proof" });
    return (
      <AccessCard heading={t("endedHeading")}>
        <p>{t("endedBody")}</p>
      </AccessCard>
    );
  }
  if (context.session.authPassedAt) redirect(`/signings/${packageId}`);
  const { organizationId } = context.signing;
  const locale = await borrowerLocale(signerLocale(context.signer, await organizationDefaultLanguage(db, organizationId)));
  const t = await getTranslations({ locale, namespace: "proof" });
  const brand = brandMarkOf(await getOrganizationBranding(db, organizationId));
  // The lender's mark and the language switcher over the card, as on the link's page.
  const frame = (card: React.ReactNode) => (
    <BrandedAccessPage brand={brand} locale={locale} returnTo={proofPath(packageId)}>
      {card}
    </BrandedAccessPage>
  );
  const method = effectiveAuthMethod(context.signing, context.signer);
  const account = ACCOUNT_SATISFIES.includes(method) ? await getSessionPrincipal(db) : null;
  const accountMatches = account !== null && account.user.email.trim().toLowerCase() === context.signer.email.trim().toLowerCase();
  const hidden = <input type="hidden" name="packageId" value={packageId} />;
  const noticeLine = notice ? (
    <p role={notice.tone === "error" ? "alert" : "status"} className={notice.tone === "error" ? "rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-900" : "rounded-md border border-green-200 bg-green-50 px-3 py-2 text-green-900"}>
      {t(`notices.${notice.key}`)}
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
        {t("continue")}
      </button>
    </form>
  );
  const continueAs = accountMatches ? (
    <form action={continueWithAccountAction}>
      {hidden}
      <button type="submit" className={secondaryButton}>
        {t("continueAs", { email: account!.user.email })}
      </button>
    </form>
  ) : null;

  switch (method) {
    case "email_code":
      return frame(
        <AccessCard heading={t("emailHeading")}>
          {noticeLine}
          <p>{t("emailSent", { email: maskEmail(context.signer.email) })}</p>
          {codeForm(t("emailLabel"), t("sixDigits"), true)}
          <form action={sendProofCodeAction}>
            {hidden}
            <button type="submit" className={secondaryButton}>
              {t("emailNewCode")}
            </button>
          </form>
          {continueAs}
        </AccessCard>,
      );
    case "sms_code":
      return frame(
        <AccessCard heading={t("smsHeading")}>
          {noticeLine}
          {isSmsConfigured() ? (
            <>
              <p>{t("smsSent", { phone: maskPhone(context.signer.phone, t("yourPhone")) })}</p>
              <form action={sendProofCodeAction}>
                {hidden}
                <button type="submit" className={secondaryButton}>
                  {t("smsSend")}
                </button>
              </form>
              {codeForm(t("smsLabel"), t("sixDigits"), true)}
            </>
          ) : (
            <p role="alert">{t("notices.sms_off")}</p>
          )}
        </AccessCard>,
      );
    case "access_code":
      return frame(
        <AccessCard heading={t("accessHeading")}>
          {noticeLine}
          <p>{t("accessBody", { name: context.signer.name })}</p>
          {codeForm(t("accessLabel"), t("accessHint"), false)}
        </AccessCard>,
      );
    case "account":
    case "link":
      return frame(
        <AccessCard heading={t("accountHeading")}>
          {noticeLine}
          <p>{t("accountBody", { email: maskEmail(context.signer.email) })}</p>
          {continueAs ?? (
            <Link href={`/sign-in?callbackUrl=${encodeURIComponent(proofPath(packageId))}`} className={primaryButton}>
              {t("signIn")}
            </Link>
          )}
        </AccessCard>,
      );
  }
}
