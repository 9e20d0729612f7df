import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getTranslations } from "next-intl/server";
import { LanguageSwitcher } from "@/app/_components/language/language-switcher";
import { borrowerLocale } from "@/app/_lib/borrower-locale";
import { CATALOGS } from "@/lib/i18n/catalogs";
import Link from "next/link";
import { redirect } from "next/navigation";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { SealedDownloads } from "@/components/sealed-downloads";
import { getPackageSeal } from "@/lib/seals/get-package-seal";
import { LiveRefresh } from "../_components/live-refresh";
import { AttachmentsSection } from "../_components/attachments-section";
import { ManageLink } from "../_components/manage-link";
import { SignerInPersonBanner } from "../_components/in-person-banner";
import { formatDateTime, joinNames } from "@/lib/format";
import { documentFileUrl } from "@/app/_lib/package-links";
import { ClosingPlan } from "../_components/closing-plan";
import { loadPackagePage, managesPackage } from "../load-package-page";
import { focusRing } from "@/components/ui/classes";
import { BrandHeader } from "@/components/brand/brand-header";
import { EmbedPoster } from "@/app/_components/embed/embed-poster";
import { embeddedOrigins, embedEventsOf } from "@/app/_components/embed/embedded";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { id } = await params;
  const page = await loadPackagePage(id, `/signings/${id}/done`);
  const t = await getTranslations({ locale: await borrowerLocale(page.language), namespace: "done" });
  return { title: t("title") };
}

const linkClass = `font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900 ${focusRing}`;

/**
 * After the last signature: what was signed and when, downloads (the originals; once the package is
 * complete and sealed, the sealed copies, the certificate and a ZIP of all), whether the others have signed
 * (a status line that refreshes by itself), and what happens next. Any other state goes back to the
 * package page, which shows it.
 */
export default async function DonePage({ params }: Props) {
  const { id } = await params;
  const page = await loadPackagePage(id, `/signings/${id}/done`);
  if (page.state.kind !== "signed") redirect(`/signings/${id}`);
  const { view, sender } = page;
  const locale = await borrowerLocale(page.language);
  const t = await getTranslations({ locale, namespace: "done" });
  const waitingFor = view.coSigners.filter((s) => s.status !== "signed").map((s) => s.name);
  const everyone = view.status === "completed" || waitingFor.length === 0;
  const needsBank = page.bank !== null && !page.bank.connected;
  // loadPackagePage has checked that the caller signs this package.
  const seal = view.status === "completed" ? await getPackageSeal((await requirePrincipal(`/signings/${id}/done`, { signerOf: id })).db, { packageId: view.id }) : null;

  const framed = await embeddedOrigins();
  return (
    <NextIntlClientProvider locale={locale} messages={CATALOGS[locale]} timeZone="UTC">
    <div lang={locale} className="mx-auto max-w-2xl space-y-6" style={{ ["--brand-color" as string]: page.brand.color }}>
      {!framed && (await managesPackage(id)) ? <ManageLink signingId={id} /> : null}
      {/* The lender's mark, as on the package page. */}
      <div className="-mx-4 -mt-6 sm:-mx-6 lg:-mt-8">
        <BrandHeader brand={page.brand} compact={framed !== null} />
      </div>
      {framed ? <EmbedPoster origins={framed} signingId={id} events={embedEventsOf(page)} /> : null}
      <LanguageSwitcher locale={locale} returnTo={`/signings/${id}/done`} />
      {/* At the desk, the flow may end here (no bank step): the device goes back from this page too. */}
      <SignerInPersonBanner signingId={id} hostName={page.inPerson?.hostName ?? null} locale={locale} />
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t("title")}</h1>
        <p className="text-sm text-slate-700">
          <span className="font-medium text-slate-900">{view.title}</span> · {t("from", { organization: sender.organizationName, location: sender.locationName })}
        </p>
      </header>

      <p role="status" data-testid="package-status" className={`rounded-lg border p-4 font-medium ${everyone ? "border-emerald-200 bg-emerald-50 text-emerald-900" : "border-amber-200 bg-amber-50 text-amber-950"}`}>
        {everyone ? t("everyone") : t("waitingFor", { names: joinNames(waitingFor, locale) })}
      </p>

      <ClosingPlan signingId={view.id} locale={locale} />
      <AttachmentsSection signingId={view.id} open={view.status === "sent" || view.status === "in_progress"} locale={locale} />

      <section aria-labelledby="signed-heading" className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <h2 id="signed-heading" className="text-lg font-semibold text-slate-900">
          {t("whatYouSigned")}
        </h2>
        <ul className="mt-3 divide-y divide-slate-100">
          {page.signable.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
              <div className="min-w-0">
                <p className="font-medium break-words text-slate-900">{d.name}</p>
                <p className="text-sm text-slate-700">{d.signedAt ? t("signedAt", { date: formatDateTime(d.signedAt, "medium", locale) }) : t("signed")}</p>
              </div>
              <a href={documentFileUrl(view.id, d.id, true)} className={`${linkClass} text-sm`} download>
                {t("download")}<span className="sr-only"> {d.name}</span>
              </a>
            </li>
          ))}
        </ul>
      </section>

      <SealedDownloads packageId={view.id} seal={seal} audience="signer" locale={locale} />

      <section aria-labelledby="next-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-slate-800 shadow-sm sm:p-6">
        <h2 id="next-heading" className="text-lg font-semibold text-slate-900">
          {t("nextHeading")}
        </h2>
        <p>{t("hasDocuments", { organization: sender.organizationName })}</p>
        {everyone ? (
          <p>{t("complete", { organization: sender.organizationName })}</p>
        ) : (
          <p>{t("onceSigned", { names: joinNames(waitingFor, locale), count: waitingFor.length, organization: sender.organizationName })}</p>
        )}
        {needsBank ? (
          <p>
            {t.rich("bankLeft", {
              link: (chunks) => (
                <Link href={`/signings/${view.id}/bank`} className={linkClass}>
                  {chunks}
                </Link>
              ),
            })}
          </p>
        ) : page.bank?.connected ? (
          <p>{page.bank.institutionName ? t("bankConnectedNamed", { institution: page.bank.institutionName }) : t("bankConnected")}</p>
        ) : null}
        <p className="text-sm text-slate-700">
          {t.rich("questions", {
            organization: sender.organizationName,
            location: sender.locationName,
            link: (chunks) => (
              <Link href="/me/esignatures" className={linkClass}>
                {chunks}
              </Link>
            ),
          })}
        </p>
      </section>

      <p>
        <Link href="/" className={linkClass}>
          {t("backToPackages")}
        </Link>
      </p>
      {everyone ? <LiveRefresh /> : <LiveRefresh intervalMs={10_000} />}
    </div>
    </NextIntlClientProvider>
  );
}
