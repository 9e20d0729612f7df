import type { Metadata } from "next";
import { headers } from "next/headers";
import Link from "next/link";
import { NextIntlClientProvider } from "next-intl";
import { getTranslations } from "next-intl/server";
import { LanguageSwitcher } from "@/app/_components/language/language-switcher";
import { borrowerLocale } from "@/app/_lib/borrower-locale";
import { lenderLanguageForSigner } from "@/lib/views/lender-language-for-signer";
import { CATALOGS } from "@/lib/i18n/catalogs";
import { getBankStep, type BankStep } from "@/lib/bank/get-bank-step";
import { loadOr404 } from "../../../../_lib/load-or-404";
import { requirePrincipal } from "../../../../_lib/require-principal";
import { BottomBar } from "../_components/bottom-bar";
import { BankLink } from "./_components/bank-link";
import { SignerInPersonBanner } from "../_components/in-person-banner";
import { inPersonSigningOf } from "@/lib/in-person/end-in-person-signing";
import { focusRing } from "@/components/ui/classes";
import { BrandHeader } from "@/components/brand/brand-header";
import { EmbedPoster } from "@/app/_components/embed/embed-poster";
import { embeddedOrigins } from "@/app/_components/embed/embedded";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations({ locale: await borrowerLocale(), namespace: "bank" });
  return { title: t("title") };
}

type BankWords = Awaited<ReturnType<typeof getTranslations<"bank">>>;

/** After the bank: the done page once the signer has signed, else back to the documents. */
function nextStep(step: BankStep, t: BankWords): { href: string; label: string } {
  return step.signerStatus === "signed"
    ? { href: `/signings/${step.signing.id}/done`, label: t("continue") }
    : { href: `/signings/${step.signing.id}`, label: t("continueToDocuments") };
}

/**
 * The flow's bank step (issue 10 item 7): the only page that loads Plaid Link's script, and the only
 * one whose CSP allows https://cdn.plaid.com (lib/security/content-security-policy.ts). When bank
 * linking is not configured, or not part of this package, it says so and how to go on.
 */
export default async function BankStepPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const returnTo = `/signings/${encodeURIComponent(id)}/bank`;
  const { db, principal } = await requirePrincipal(returnTo, { signerOf: id });
  const step = await loadOr404(getBankStep(db, { principal, packageId: id }));
  const locale = await borrowerLocale(await lenderLanguageForSigner(db, { principal, packageId: id }));
  const t = await getTranslations({ locale, namespace: "bank" });
  const steps = await getTranslations({ locale, namespace: "steps" });
  const next = nextStep(step, t);
  const packageHref = `/signings/${step.signing.id}`;
  const position = step.steps.indexOf("link_bank");
  const linked = step.bank.connected;
  const framed = await embeddedOrigins();
  // A signer at the desk can hand the device back from this step too.
  const hosted = principal.signerSession?.method === "in_person" ? await inPersonSigningOf(db, principal.signerSession.sessionId) : null;

  return (
    <NextIntlClientProvider locale={locale} messages={CATALOGS[locale]} timeZone="UTC">
    <div lang={locale} className="mx-auto max-w-2xl space-y-6 pb-28 lg:pb-0" style={{ ["--brand-color" as string]: step.brand.color }}>
      {/* The lender's mark, as on the package page. */}
      <div className="-mx-4 -mt-6 sm:-mx-6 lg:-mt-8">
        <BrandHeader brand={step.brand} compact={framed !== null} />
      </div>
      {framed ? <EmbedPoster origins={framed} signingId={step.signing.id} events={linked ? ["bank_linked"] : []} /> : null}
      <LanguageSwitcher locale={locale} returnTo={returnTo} />
      <SignerInPersonBanner signingId={step.signing.id} hostName={hosted?.hostName ?? null} locale={locale} />
      <p>
        <Link href={packageHref} className="text-sm font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700">
          <span aria-hidden="true">← </span>
          {t("back", { title: step.signing.title })}
        </Link>
      </p>

      <header className="space-y-1">
        {position >= 0 ? (
          <p className="text-sm font-medium text-slate-700">
            {t("stepOf", { position: position + 1, total: step.steps.length })}
          </p>
        ) : null}
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t("title")}</h1>
        <p className="text-sm text-slate-700">{step.signing.title}</p>
      </header>

      {position >= 0 ? (
        <ol aria-label={steps("list")} className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
          {step.steps.map((s, index) => {
            // Earlier steps count as done once the signer has signed; this one once a bank is connected.
            const done = (index < position && step.signerStatus === "signed") || (index === position && linked);
            const current = index === position && !linked;
            return (
              <li key={s} aria-current={current ? "step" : undefined} className="flex items-center gap-2">
                <span
                  aria-hidden="true"
                  className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs font-semibold ${
                    done ? "border-emerald-700 bg-emerald-700 text-white" : current ? "border-blue-700 bg-white text-blue-800 ring-2 ring-blue-700" : "border-slate-400 bg-white text-slate-700"
                  }`}
                >
                  {done ? "✓" : index + 1}
                </span>
                <span className={current ? "font-semibold text-slate-900" : "text-slate-700"}>
                  {steps(s)}
                  {current ? <span className="sr-only"> {t("currentStep")}</span> : null}
                  {done ? <span className="sr-only"> {t("done")}</span> : null}
                </span>
              </li>
            );
          })}
        </ol>
      ) : null}

      <section aria-label={t("account")} className="space-y-4 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
        {step.availability === "available" ? (
          <>
            <p className="text-sm text-slate-800">
              {t("lead", { lender: step.brand.displayName })}
            </p>
            <BankLink
              packageId={step.signing.id}
              linkSession={principal.signerSession !== undefined}
              initialStatus={{ connected: step.bank.connected, item: step.bank.item }}
              cspNonce={(await headers()).get("x-nonce") ?? undefined}
              continueHref={next.href}
              continueLabel={next.label}
              returnTo={returnTo}
            />
          </>
        ) : (
          <>
            <p className="text-base text-slate-900">
              {step.availability === "not_configured"
                ? t("notConfigured")
                : step.availability === "not_in_flow"
                  ? t("notInFlow")
                  : t("closed", { status: step.signing.status })}
            </p>
            {/* On a phone the bottom bar holds the action, as on the other steps. */}
            <div>
              <Link
                href={step.availability === "closed" ? packageHref : next.href}
                className={`hidden min-h-11 items-center justify-center rounded-md bg-[var(--brand-color,#1d4ed8)] px-5 py-2.5 text-base font-semibold text-white shadow-sm hover:brightness-90 ${focusRing} lg:inline-flex`}
              >
                {step.availability === "closed" ? t("backToPackage") : next.label}
              </Link>
              <BottomBar summary="" progress={null} action={step.availability === "closed" ? { label: t("backToPackage"), href: packageHref } : next} />
            </div>
          </>
        )}
      </section>
    </div>
    </NextIntlClientProvider>
  );
}
