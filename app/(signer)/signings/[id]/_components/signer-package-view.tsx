import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { BrandHeader } from "@/components/brand/brand-header";
import { DocumentsViewer } from "@/components/pdf-viewer/documents-viewer";
import type { SignerPackagePage } from "@/lib/signings/get-signer-package-page";
import { listMyDocumentFields } from "@/lib/fields/list-my-document-fields";
import { serializeField } from "@/lib/fields/serialize-field";
import { formatDateTime, joinNames } from "@/app/_lib/format";
import { documentFileUrl } from "@/app/_lib/package-links";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { BottomBar } from "./bottom-bar";
import { ClosingPlan } from "./closing-plan";
import { CoSigners } from "./co-signers";
import { DeferredDeclineDialog, DeferredLiveRefresh, DeferredSignerDocuments } from "./deferred";
import { FlowSteps } from "./flow-steps";
import { ManageLink } from "./manage-link";
import { SignPanel } from "./sign-panel";
import { SignerFieldsProvider, type SignerField } from "./signer-fields-context";
import { StopTexts } from "./stop-texts";
import { focusRing } from "@/components/ui/classes";

const primaryClass =
  `block w-full rounded-md bg-[var(--brand-color,#1d4ed8)] px-4 py-3 text-center text-base font-semibold text-white shadow-sm hover:brightness-90 ${focusRing}`;
const linkClass = `font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900 ${focusRing}`;

/**
 * The signer's view of `/signings/<id>` (the package page dispatches here for a signer of the
 * package). A signer who also manages the package gets a link to the manager's view on top.
 */
export function SignerPackageView({ id, page, showManageLink }: { id: string; page: SignerPackagePage; showManageLink: boolean }) {
  // The lender's mark on top; its colour (checked for contrast when saved) on the primary buttons below.
  const screen = (
    <div style={{ ["--brand-color" as string]: page.brand.color }}>
      <div className="-mx-4 -mt-6 mb-4 sm:-mx-6 lg:-mt-8">
        <BrandHeader brand={page.brand} />
      </div>
      <SignerScreen id={id} page={page} />
    </div>
  );
  if (!showManageLink) return screen;
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
async function SignerScreen({ id, page }: { id: string; page: SignerPackagePage }) {
  const { state, view } = page;
  const needsBank = page.bank !== null && !page.bank.connected;
  if (state.kind === "signed" && !needsBank) redirect(`/signings/${id}/done`);

  switch (state.kind) {
    case "declined":
      return (
        <StateScreen page={page} heading={state.byMe ? "You declined this package" : `${state.declinedBy ?? "A signer"} declined this package`}>
          <p>
            {view.declinedAt ? <>Declined on {formatDateTime(view.declinedAt)}. </> : null}
            {state.byMe
              ? `${page.sender.organizationName} can see that you declined and why. Nothing more can be signed in this package.`
              : `Nothing more can be signed in this package. ${page.sender.organizationName} has been told and will contact you if anything changes.`}
          </p>
          {page.myDeclineReason ? (
            <p>
              Your reason: <q>{page.myDeclineReason}</q>
            </p>
          ) : null}
        </StateScreen>
      );
    case "cancelled":
      return (
        <StateScreen page={page} heading={`${page.sender.organizationName} cancelled this package`}>
          <p>
            {view.cancelledAt ? <>Cancelled on {formatDateTime(view.cancelledAt)}. </> : null}There is nothing for you to sign here any more.
          </p>
          {page.cancelReason ? (
            <p>
              Their reason: <q>{page.cancelReason}</q>
            </p>
          ) : null}
          <p>If they send you a new package, it will appear on your home page and in your email.</p>
        </StateScreen>
      );
    case "expired":
      return (
        <StateScreen page={page} heading="This package has expired">
          <p>
            {view.expiresAt ? <>The deadline to sign was {formatDateTime(view.expiresAt)}. </> : null}It can no longer be signed.
          </p>
          <p>
            Contact {page.sender.organizationName} ({page.sender.locationName}) if you still need to sign: they can send you a new package.
          </p>
        </StateScreen>
      );
    case "signed":
      return <BankNext page={page} />;
    case "waiting":
    case "your_turn": {
      const { db, principal } = await requirePrincipal(`/signings/${id}`);
      const fields = (await listMyDocumentFields(db, { principal, packageId: id })).map(serializeField.package);
      return <SigningScreen page={page} fields={fields} waitingFor={state.kind === "waiting" ? state.waitingFor : null} />;
    }
  }
}

function PackageHeader({ page }: { page: SignerPackagePage }) {
  return (
    <header className="space-y-1">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900 break-words">{page.view.title}</h1>
      <p className="text-sm text-slate-700">
        From <span className="font-medium text-slate-900">{page.sender.organizationName}</span> · {page.sender.locationName}
      </p>
    </header>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  const headingId = `panel-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
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
function StateScreen({ page, heading, children }: { page: SignerPackagePage; heading: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PackageHeader page={page} />
      <section aria-labelledby="state-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 text-slate-800 shadow-sm">
        <h2 id="state-heading" className="text-lg font-semibold text-slate-900">
          {heading}
        </h2>
        {children}
        <p>
          <Link href="/" className={linkClass}>
            Back to your packages
          </Link>
        </p>
      </section>
      <Panel title="Signers">
        <CoSigners view={page.view} />
      </Panel>
    </div>
  );
}

/** Everything signed, and the flow's bank step is next. */
function BankNext({ page }: { page: SignerPackagePage }) {
  const bankHref = `/signings/${page.view.id}/bank`;
  return (
    <div className="mx-auto max-w-2xl space-y-6 pb-28 lg:pb-0">
      <PackageHeader page={page} />
      <section aria-labelledby="state-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 text-slate-800 shadow-sm">
        <h2 id="state-heading" className="text-lg font-semibold text-slate-900">
          You’ve signed every document. Next: link your bank
        </h2>
        <p>{page.sender.organizationName} asks you to connect the bank account for this loan. It takes about a minute.</p>
        <Link href={bankHref} className={`${primaryClass} hidden lg:block`}>
          Continue to bank
        </Link>
        <p className="text-sm">
          <Link href={`/signings/${page.view.id}/done`} className={linkClass}>
            See what you signed
          </Link>
        </p>
      </section>
      <Panel title="Steps">
        <FlowSteps steps={page.flow.steps} />
      </Panel>
      <BottomBar summary="All documents signed" progress={{ done: page.signable.length, total: page.signable.length }} action={{ label: "Continue to bank", href: bankHref }} />
    </div>
  );
}

/** Your turn, or waiting for an earlier routing group: the documents and the one primary action. */
function SigningScreen({ page, fields, waitingFor }: { page: SignerPackagePage; fields: SignerField[]; waitingFor: string[] | null }) {
  const { view } = page;
  const total = page.signable.length;
  const signed = page.signable.filter((d) => d.signed).length;
  const left = total - signed;
  const waitingText = waitingFor ? `Waiting for ${joinNames(waitingFor)} to sign first` : null;
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
      status: mine ? (mine.signed ? "Signed" : "To sign") : "For your information",
    };
  });

  const screen = (
    <div className="pb-28 lg:grid lg:grid-cols-[minmax(0,1fr)_320px] lg:gap-8 lg:pb-0">
      <div className="lg:col-start-2 lg:row-start-1">
        <PackageHeader page={page} />
      </div>

      {waitingText ? (
        <section aria-labelledby="state-heading" className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-4 text-amber-950 lg:col-start-1 lg:row-start-1 lg:mt-0">
          <h2 id="state-heading" className="font-semibold">
            {waitingText}
          </h2>
          <p className="mt-1 text-sm">
            You can read the documents now. We will email you when it is your turn; this page updates by itself.
          </p>
        </section>
      ) : null}

      <section
        aria-label="Documents"
        className={`mt-6 min-w-0 lg:col-start-1 lg:mt-0 ${waitingText ? "lg:row-start-2 lg:mt-4" : "lg:row-start-1"} lg:row-span-3`}
      >
        {fields.length > 0 ? (
          <DeferredSignerDocuments documents={documents} canSign={waitingText === null} />
        ) : (
          <DocumentsViewer documents={documents} initialDocumentId={firstToSign} />
        )}
      </section>

      <aside aria-label="Your signing" className="mt-6 space-y-4 lg:sticky lg:top-4 lg:col-start-2 lg:row-start-2 lg:mt-4 lg:self-start">
        {view.message ? (
          <Panel title="Message from the sender">
            <p className="text-sm whitespace-pre-line text-slate-800">{view.message}</p>
          </Panel>
        ) : null}
        <ClosingPlan signingId={view.id} />
        <div id="sign-panel" tabIndex={-1} className="scroll-mt-4 rounded-lg border border-blue-200 bg-white p-4 shadow-sm">
          <SignPanel
            signingId={view.id}
            signerName={view.me.name}
            consentGiven={page.consentGiven}
            canSign={waitingText === null}
            disabledReason={waitingText ? `${joinNames(waitingFor ?? [])} must sign before you can.` : null}
            documents={page.signable}
          />
        </div>
        <Panel title="Steps">
          <FlowSteps steps={page.flow.steps} />
        </Panel>
        <Panel title="Signers">
          <CoSigners view={view} />
        </Panel>
        <StopTexts signingId={view.id} organizationName={page.brand.displayName} />
        <DeferredDeclineDialog signingId={view.id} organizationName={page.sender.organizationName} otherSignerNames={otherSignerNames} />
      </aside>

      <BottomBar
        summary={waitingText ?? (left === 0 ? "All documents signed" : `${left} of ${total} left`)}
        progress={{ done: signed, total }}
        action={waitingText ? null : { label: signed === 0 ? "Start" : "Next", href: "#sign-panel" }}
      />
      <DeferredLiveRefresh intervalMs={waitingText ? 15_000 : undefined} />
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
