"use client";

import "@fontsource/caveat/400.css";
import "@fontsource/dancing-script/400.css";
import "@fontsource/great-vibes/400.css";
import "@fontsource/homemade-apple/400.css";
import { useTranslations } from "next-intl";
import { lazy, Suspense, useActionState, useCallback, useEffect, useId, useRef, useState } from "react";
import { consentAction } from "../consent-action";
import type { ConsentFormState } from "../consent-form";
import { loadAdoptedSignature, storeAdoptedSignature, type AdoptedSignature } from "./adopted-signature";
import { ConsentStep } from "./consent-step";
import { DocumentSignRow, type SignableDocument } from "./document-sign-row";
import { SignaturePreview } from "./signature-preview";
import { useSignerFields } from "./signer-fields-context";
import { focusRing } from "@/components/ui/classes";
import { Dialog } from "@/components/ui/dialog";

// signature_pad and the dialog's content load when the signer first opens it, not with the page.
// React.lazy rather than next/dynamic (the same split, without next/dynamic's client code on the page):
// the content only ever renders once the dialog is open, so never on the server.
const AdoptSignatureForm = lazy(() => import("./adopt-signature-dialog"));

export type SignPanelProps = {
  signingId: string;
  signerName: string;
  consentGiven: boolean;
  canSign: boolean;
  disabledReason: string | null;
  documents: SignableDocument[];
};

/**
 * The signer's signing steps for one package: the electronic-records consent (once), adopting a
 * signature (once, changeable), then one Sign button per document. Progress and outcomes are
 * announced in a live region; errors sit next to the button they concern.
 */
export function SignPanel({ signingId, signerName, consentGiven, canSign, disabledReason, documents }: SignPanelProps) {
  const id = useId();
  const t = useTranslations("sign");
  const tAdopt = useTranslations("adopt");
  const [consentState, consentDispatch, consentPending] = useActionState<ConsentFormState, FormData>(consentAction, { status: "idle" });
  const consented = consentGiven || consentState.status === "accepted";
  const [signature, setSignature] = useState<AdoptedSignature | null>(null);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [signedHere, setSignedHere] = useState<Record<string, string>>({});
  // What the live region says: the latest step's outcome.
  const [announcement, setAnnouncement] = useState<string | { signedDocumentId: string }>("");
  const signatureHeading = useRef<HTMLHeadingElement>(null);
  const wasConsented = useRef(consented);

  useEffect(() => {
    // sessionStorage exists only in the browser: read it after hydration, not during render.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setSignature(loadAdoptedSignature(signingId));
  }, [signingId]);

  // Signature fields on the pages show the adopted signature.
  const setFieldsSignature = useSignerFields()?.setSignature;
  useEffect(() => {
    setFieldsSignature?.(signature);
  }, [signature, setFieldsSignature]);
  const markSigned = useSignerFields()?.markSigned;

  useEffect(() => {
    if (consented && !wasConsented.current) {
      setAnnouncement(t("thanksNext"));
      signatureHeading.current?.focus();
    }
    wasConsented.current = consented;
  }, [consented, t]);

  const isSigned = (d: SignableDocument) => d.signed || d.id in signedHere;
  const left = documents.filter((d) => !isSigned(d)).length;
  const announced =
    typeof announcement === "string"
      ? announcement
      : `${t("docSigned", { name: documents.find((d) => d.id === announcement.signedDocumentId)?.name ?? t("theDocument") })} ${
          left === 0 ? t("everySigned") : `${t("left", { left, total: documents.length })}.`
        }`;

  const onSigned = useCallback((documentId: string, signedAt: string) => {
    setSignedHere((current) => (current[documentId] ? current : { ...current, [documentId]: signedAt }));
    setAnnouncement({ signedDocumentId: documentId });
    markSigned?.(documentId);
  }, [markSigned]);

  function adopt(next: AdoptedSignature) {
    setSignature(next);
    storeAdoptedSignature(signingId, next);
    // Closing returns focus to the opener, which stays mounted (its label changes to "Change signature").
    setDialogOpen(false);
    setAnnouncement(t("adoptedNext"));
  }

  const reasonId = `${id}-reason`;
  const blocked = !canSign;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-4">
      <div className="flex items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-lg font-semibold text-slate-950">
          {t("title")}
        </h2>
        <p className="text-sm text-slate-700">
          {left === 0 ? t("allSigned") : t("left", { left, total: documents.length })}
        </p>
      </div>

      {blocked && disabledReason ? (
        <p id={reasonId} className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          {disabledReason}
        </p>
      ) : null}

      {!consented ? (
        <ConsentStep signingId={signingId} state={consentState} action={consentDispatch} pending={consentPending} />
      ) : (
        <>
          <div className="space-y-2 rounded-lg border border-slate-300 bg-white p-4">
            <h3 ref={signatureHeading} tabIndex={-1} className="text-base font-semibold text-slate-950 focus:outline-none">
              {t("yourSignature")}
            </h3>
            {signature ? (
              <SignaturePreview signature={signature} label={signature.kind === "typed" ? t("adoptedTyped", { text: signature.text }) : t("adoptedDrawn")} />
            ) : (
              <p className="text-sm text-slate-700">{t("adoptOnce")}</p>
            )}
            <div>
              <Dialog
                id={`${id}-adopt`}
                className="w-[calc(100%-1rem)] max-w-xl p-5 sm:p-6"
                title={tAdopt("title")}
                description={tAdopt("description")}
                openLabel={signature ? t("change") : t("adopt")}
                openClassName={`min-h-11 w-full rounded-md border border-blue-700 bg-white px-4 py-2 text-sm font-semibold text-blue-800 hover:bg-blue-50 ${focusRing} sm:w-auto`}
                open={dialogOpen}
                onOpenChange={setDialogOpen}
              >
                {dialogOpen ? (
                  <Suspense fallback={null}>
                    <AdoptSignatureForm signerName={signerName} initial={signature} onAdopt={adopt} onCancel={() => setDialogOpen(false)} />
                  </Suspense>
                ) : null}
              </Dialog>
            </div>
          </div>

          <ul className="space-y-2" aria-label={t("documentsToSign")}>
            {documents.map((d) => (
              <DocumentSignRow
                key={`${d.id}:${d.sha256}`}
                signingId={signingId}
                document={{ ...d, signed: isSigned(d), signedAt: d.signedAt ?? signedHere[d.id] ?? null }}
                signature={signature}
                disabled={blocked}
                describedBy={blocked && disabledReason ? reasonId : undefined}
                onSigned={onSigned}
              />
            ))}
          </ul>
        </>
      )}

      <p aria-live="polite" role="status" className="sr-only">
        {announced}
      </p>
    </section>
  );
}
