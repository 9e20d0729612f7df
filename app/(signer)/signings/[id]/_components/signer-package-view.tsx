import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { NextIntlClientProvider } from "next-intl";
import { getTranslations } from "next-intl/server";
import { LanguageSwitcher } from "@/app/_components/language/language-switcher";
import { borrowerLocale } from "@/app/_lib/borrower-locale";
import { CATALOGS } from "@/lib/i18n/catalogs";
import type { Locale } from "@/lib/i18n/locales";
import { BrandHeader } from "@/components/brand/brand-header";
import { EmbedPoster } from "@/app/_components/embed/embed-poster";
import { embeddedOrigins, embedEventsOf } from "@/app/_components/embed/embedded";
import { SignerInPersonBanner } from "./in-person-banner";
import { DocumentsViewer } from "@/components/pdf-viewer/documents-viewer";
import type { SignerPackagePage } from "@/lib/views/get-signer-package-page";
import { listMyDocumentFields } from "@/lib/fields/list-my-document-fields";
import { serializeField } from "@/lib/fields/serialize-field";
import { formatDateTime, joinNames } from "@/lib/format";
import { documentFileUrl } from "@/app/_lib/package-links";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { AttachmentsSection } from "./attachments-section";
import { BottomBar } from "./bottom-bar";
import { ClosingPlan } from "./closing-plan";
import { CoSigners } from "./co-signers";
import { DeferredDeclineDialog, DeferredSignerDocuments } from "./deferred";
import { FlowSteps } from "./flow-steps";
import { LiveRefresh } from "./live-refresh";
import { ManageLink } from "./manage-link";
import { SignPanel } from "./sign-panel";
import { SignerFieldsProvider, type SignerField } from "./signer-fields-context";
import { StopTexts } from "./stop-texts";
import { focusRing } from "@/components/ui/classes";

/** A document without a signature request of the caller: by how it is executed (an e-sign one is someone else's to sign). */
const NOT_E_SIGNED_STATUS = { esign: "statusInformation", wet_sign: "statusInk", notarize: "statusNotarize", review_only: "statusReadOnly" } as const;

const primaryClass =
  `block w-full rounded-md bg-[var(--brand-color,#1d4ed8)] px-4 py-3 text-center text-base font-semibold text-white shadow-sm hover:brightness-90 ${focusRing}`;
const linkClass = `font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900 ${focusRing}`;

type T = Awaited<ReturnType<typeof getTranslations<"package">>>;

/**
 * The signer's view of `/signings/<id>` (the package page dispatches here for a signer of the
 * package). A signer who also manages the package gets a link to the manager's view on top. In the
 * borrower's language (`borrowerLocale`: their choice on the page, else the lender's for them), with
 * a switcher to the other one; the manager's link stays English, like the console.
 */
export async function SignerPackageView({ id, page, showManageLink }: { id: string; page: SignerPackagePage; showManageLink: boolean }) {
  const locale = await borrowerLocale(page.language);
  const t = await getTranslations({ locale, namespace: "package" });
  const framed = await embeddedOrigins();
  // The lender's mark on top; its colour (checked for contrast when saved) on the primary buttons below.
  const screen = (
    <NextIntlClientProvider locale={locale} messages={CATALOGS[locale]} timeZone="UTC">
      <div lang={locale} style={{ ["--brand-color" as string]: page.brand.color }}>
        <div className="-mx-4 -mt-6 mb-2 sm:-mx-6 lg:-mt-8">
          <BrandHeader brand={page.brand} compact={framed !== null} />
        </div>
        {framed ? <EmbedPoster origins={framed} signingId={id} events={embedEventsOf(page)} /> : null}
        <LanguageSwitcher locale={locale} returnTo={`/signings/${id}`} />
        {page.inPerson ? (
          <div className="mb-4">
            <SignerInPersonBanner signingId={id} hostName={page.inPerson.hostName} locale={locale} />
          </div>
        ) : null}
        <SignerScreen id={id} page={page} locale={locale} t={t} />
      </div>
    </NextIntlClientProvider>
  );
  if (!showManageLink || framed) return screen;
  return (
    <>
      <ManageLink signingId={id} />
      {screen}
    </>
  );
}

/**
 * The signer's package page. The state is decided on the server (`getSignerPackagePage`); each state
 * has its own screen. Signed everything: the bank step when the flow has one and no bank is linked,
 * else the done page.
 */
async function SignerScreen({ id, page, locale, t }: { id: string; page: SignerPackagePage; locale: Locale; t: T }) {
  const { state, view } = page;
  const needsBank = page.bank !== null && !page.bank.connected;
  if (state.kind === "signed" && !needsBank) redirect(`/signings/${id}/done`);

  switch (state.kind) {
    case "declined":
      return (
        <StateScreen page={page} t={t} heading={state.byMe ? t("declinedByMe") : t("declinedBy", { name: state.declinedBy ?? t("aSigner") })}>
          <p>
            {view.declinedAt ? <>{t("declinedOn", { date: formatDateTime(view.declinedAt, "medium", locale) })} </> : null}
            {state.byMe ? t("declinedMine", { organization: page.sender.organizationName }) : t("declinedOther", { organization: page.sender.organizationName })}
          </p>
          {page.myDeclineReason ? (
            <p>
              {t("yourReason")} <q>{page.myDeclineReason}</q>
            </p>
          ) : null}
        </StateScreen>
      );
    case "cancelled":
      return (
        <StateScreen page={page} t={t} heading={t("cancelledHeading", { organization: page.sender.organizationName })}>
          <p>
            {view.cancelledAt ? <>{t("cancelledOn", { date: formatDateTime(view.cancelledAt, "medium", locale) })} </> : null}
            {t("nothingToSign")}
          </p>
          {page.cancelReason ? (
            <p>
              {t("theirReason")} <q>{page.cancelReason}</q>
            </p>
          ) : null}
          <p>{t("newPackage")}</p>
        </StateScreen>
      );
    case "expired":
      return (
        <StateScreen page={page} t={t} heading={t("expiredHeading")}>
          <p>
            {view.expiresAt ? <>{t("deadlineWas", { date: formatDateTime(view.expiresAt, "medium", locale) })} </> : null}
            {t("noLongerSignable")}
          </p>
          <p>{t("contactToSign", { organization: page.sender.organizationName, location: page.sender.locationName })}</p>
        </StateScreen>
      );
    case "signed":
      return <BankNext page={page} locale={locale} t={t} />;
    case "waiting":
    case "your_turn": {
      const { db, principal } = await requirePrincipal(`/signings/${id}`, { signerOf: id });
      const fields = (await listMyDocumentFields(db, { principal, packageId: id })).map(serializeField.package);
      return <SigningScreen page={page} fields={fields} waitingFor={state.kind === "waiting" ? state.waitingFor : null} locale={locale} t={t} />;
    }
  }
}

function PackageHeader({ page, t }: { page: SignerPackagePage; t: T }) {
  return (
    <header className="space-y-1">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 break-words">{page.view.title}</h1>
      <p className="text-sm text-slate-700">
        {t.rich("from", {
          organization: page.sender.organizationName,
          location: page.sender.locationName,
          strong: (chunks) => <span className="font-medium text-slate-900">{chunks}</span>,
        })}
      </p>
    </header>
  );
}

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const headingId = `panel-${id}`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id={headingId} className="mb-3 text-sm font-semibold uppercase tracking-wide text-slate-700">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Declined, cancelled, expired: what happened, what it means, where to go. */
function StateScreen({ page, t, heading, children }: { page: SignerPackagePage; t: T; heading: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PackageHeader page={page} t={t} />
      <section aria-labelledby="state-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 text-slate-800 shadow-sm">
        <h2 id="state-heading" className="text-lg font-semibold text-slate-900">
          {heading}
        </h2>
        {children}
        <p>
          {/* A plain anchor, like every link of the signer's page: next/link's client code is not among its scripts. */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- see above */}
          <a href="/" className={linkClass}>
            {t("backToPackages")}
          </a>
        </p>
      </section>
      <Panel id="signers" title={t("signers")}>
        <CoSigners view={page.view} />
      </Panel>
    </div>
  );
}

/** Everything signed, and the flow's bank step is next. */
function BankNext({ page, locale, t }: { page: SignerPackagePage; locale: Locale; t: T }) {
  const bankHref = `/signings/${page.view.id}/bank`;
  return (
    <div className="mx-auto max-w-2xl space-y-6 pb-28 lg:pb-0">
      <PackageHeader page={page} t={t} />
      <section aria-labelledby="state-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 text-slate-800 shadow-sm">
        <h2 id="state-heading" className="text-lg font-semibold text-slate-900">
          {t("bankNextHeading")}
        </h2>
        <p>{t("bankNextLead", { organization: page.sender.organizationName })}</p>
        <a href={bankHref} className={`${primaryClass} hidden lg:block`}>
          {t("continueToBank")}
        </a>
        <p className="text-sm">
          <a href={`/signings/${page.view.id}/done`} className={linkClass}>
            {t("seeWhatYouSigned")}
          </a>
        </p>
      </section>
      {/* A hybrid closing may still have documents to acknowledge ("I received it") or to sign in ink. */}
      <ClosingPlan signingId={page.view.id} locale={locale} />
      <Panel id="steps" title={t("steps")}>
        <FlowSteps steps={page.flow.steps} />
      </Panel>
      <BottomBar summary={t("allSigned")} progress={{ done: page.signable.length, total: page.signable.length }} action={{ label: t("continueToBank"), href: bankHref }} />
    </div>
  );
}

/** Your turn, or waiting for an earlier routing group: the documents and the one primary action. */
function SigningScreen({
  page,
  fields,
  waitingFor,
  locale,
  t,
}: {
  page: SignerPackagePage;
  fields: SignerField[];
  waitingFor: string[] | null;
  locale: Locale;
  t: T;
}) {
  const { view } = page;
  const total = page.signable.length;
  const signed = page.signable.filter((d) => d.signed).length;
  const left = total - signed;
  const waitingText = waitingFor ? t("waitingFor", { names: joinNames(waitingFor, locale) }) : null;
  const firstToSign = page.signable.find((d) => !d.signed)?.id;
  const otherSignerNames = view.coSigners.filter((s) => s.status !== "signed" && s.status !== "declined").map((s) => s.name);
  const documents = view.documents.map((d) => {
    const mine = page.signable.find((s) => s.id === d.id);
    return {
      id: d.id,
      name: d.name,
      pageCount: d.pageCount,
      fileUrl: documentFileUrl(view.id, d.id),
      downloadUrl: documentFileUrl(view.id, d.id, true),
      status: mine ? (mine.signed ? t("statusSigned") : t("statusToSign")) : t(NOT_E_SIGNED_STATUS[d.executionMode]),
    };
  });

  const screen = (
    <div className="pb-28 lg:grid lg:grid-cols-[minmax(0,1fr)_320px] lg:gap-8 lg:pb-0">
      <div className="lg:col-start-2 lg:row-start-1">
        <PackageHeader page={page} t={t} />
      </div>

      {waitingText ? (
        <section aria-labelledby="state-heading" className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-950 lg:col-start-1 lg:row-start-1 lg:mt-0">
          <h2 id="state-heading" className="font-semibold">
            {waitingText}
          </h2>
          <p className="mt-1 text-sm">
            {t("waitingHint")}
          </p>
        </section>
      ) : null}

      <section
        aria-label={t("documents")}
        className={`mt-6 min-w-0 lg:col-start-1 lg:mt-0 ${waitingText ? "lg:row-start-2 lg:mt-4" : "lg:row-start-1"} lg:row-span-3`}
      >
        {fields.length > 0 ? (
          <DeferredSignerDocuments documents={documents} canSign={waitingText === null} />
        ) : (
          <DocumentsViewer documents={documents} initialDocumentId={firstToSign} />
        )}
      </section>

      <aside aria-label={t("yourSigning")} className="mt-6 space-y-4 lg:sticky lg:top-4 lg:col-start-2 lg:row-start-2 lg:mt-4 lg:self-start">
        {view.message ? (
          <Panel id="message-from-the-sender" title={t("messageFromSender")}>
            <p className="text-sm whitespace-pre-line text-slate-800">{view.message}</p>
          </Panel>
        ) : null}
        <ClosingPlan signingId={view.id} locale={locale} />
        <AttachmentsSection signingId={view.id} open locale={locale} />
        <div id="sign-panel" tabIndex={-1} className="scroll-mt-4 rounded-lg border border-blue-200 bg-white p-4 shadow-sm">
          <SignPanel
            signingId={view.id}
            signerName={view.me.name}
            consentGiven={page.consentGiven}
            canSign={waitingText === null}
            disabledReason={waitingText ? t("mustSignFirst", { names: joinNames(waitingFor ?? [], locale) }) : null}
            documents={page.signable}
          />
        </div>
        <Panel id="steps" title={t("steps")}>
          <FlowSteps steps={page.flow.steps} />
        </Panel>
        <Panel id="signers" title={t("signers")}>
          <CoSigners view={view} />
        </Panel>
        <StopTexts signingId={view.id} organizationName={page.brand.displayName} locale={locale} />
        <DeferredDeclineDialog signingId={view.id} organizationName={page.sender.organizationName} otherSignerNames={otherSignerNames} />
      </aside>

      <BottomBar
        summary={waitingText ?? (left === 0 ? t("allSigned") : t("left", { left, total }))}
        progress={{ done: signed, total }}
        action={waitingText ? null : { label: signed === 0 ? t("start") : t("next"), href: "#sign-panel" }}
      />
      <LiveRefresh intervalMs={waitingText ? 15_000 : undefined} />
    </div>
  );
  if (fields.length === 0) return screen;
  return (
    <SignerFieldsProvider
      fields={fields}
      signerName={view.me.name}
      initialDocumentId={firstToSign ?? documents[0]?.id}
      signedDocumentIds={page.signable.filter((d) => d.signed).map((d) => d.id)}
    >
      {screen}
    </SignerFieldsProvider>
  );
}
