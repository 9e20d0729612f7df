"use client";

import { useLocale, useTranslations } from "next-intl";
import { useActionState, useEffect, useId, useRef } from "react";
import type { SignFormState } from "../sign-form";
import { signAction } from "../sign-action";
import type { AdoptedSignature } from "./adopted-signature";
import { fieldEntries, missingFields, useSignerFields } from "./signer-fields-context";
import { formatDateTime } from "@/lib/format";
import { focusRing } from "@/components/ui/classes";

export type SignableDocument = { id: string; name: string; sha256: string; signed: boolean; signedAt: string | null };

/**
 * One document's sign button. The idempotency key is made once per row (per intent) and sent with
 * every submission of it, so a double click or a retry lands on the same record.
 */
export function DocumentSignRow({
  signingId,
  document,
  signature,
  disabled,
  describedBy,
  onSigned,
}: {
  signingId: string;
  document: SignableDocument;
  signature: AdoptedSignature | null;
  disabled: boolean;
  describedBy?: string;
  onSigned: (documentId: string, signedAt: string) => void;
}) {
  const id = useId();
  const t = useTranslations("sign");
  const locale = useLocale();
  const [state, dispatch, pending] = useActionState<SignFormState, FormData>(signAction, { status: "idle" });
  const intentKey = useRef<string | null>(null);
  const fields = useSignerFields();
  const missing = fields ? missingFields(fields, document.id) : [];

  useEffect(() => {
    intentKey.current ??= crypto.randomUUID();
  }, []);

  useEffect(() => {
    if (state.status === "signed") onSigned(state.documentId, state.signedAt);
  }, [state, onSigned]);

  const signedAt = document.signedAt ?? (state.status === "signed" ? state.signedAt : null);
  const signed = document.signed || state.status === "signed";
  const error = state.status === "error" ? state : null;

  function submit(formData: FormData) {
    if (!signature || !intentKey.current) return;
    formData.set("idempotencyKey", intentKey.current);
    formData.set("kind", signature.kind);
    if (signature.kind === "typed") {
      formData.set("text", signature.text);
      formData.set("font", signature.font);
    } else {
      formData.set("imageDataUrl", signature.imageDataUrl);
    }
    if (fields) for (const [name, value] of fieldEntries(fields, document.id)) formData.set(name, value);
    dispatch(formData);
  }

  return (
    <li className="rounded-lg border border-slate-300 bg-white p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="min-w-0 break-words font-medium text-slate-950">{document.name}</p>
        {signed ? (
          <p className="flex items-center gap-1 text-sm font-medium text-emerald-800">
            <span aria-hidden="true">✓</span> {t("signed")}
            {signedAt ? (
              <>
                {" "}
                <time dateTime={signedAt}>
                  {formatDateTime(signedAt, "medium", locale)}
                </time>
              </>
            ) : null}
          </p>
        ) : (
          <form action={submit}>
            <input type="hidden" name="signingId" value={signingId} />
            <input type="hidden" name="documentId" value={document.id} />
            <input type="hidden" name="documentSha256" value={document.sha256} />
            <input type="hidden" name="locale" value={locale} />
            <button
              type="submit"
              disabled={disabled || pending || !signature || missing.length > 0}
              aria-describedby={[describedBy, missing.length > 0 ? `${id}-missing` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined}
              className={`min-h-11 rounded-md bg-[var(--brand-color,#1d4ed8)] px-5 py-2 text-sm font-semibold text-white hover:brightness-90 ${focusRing} disabled:cursor-not-allowed disabled:bg-slate-500`}
            >
              {pending ? t("signing") : t("signButton")}
              <span className="sr-only"> {document.name}</span>
            </button>
          </form>
        )}
      </div>
      {missing.length > 0 && !signed ? (
        <p id={`${id}-missing`} className="mt-2 text-sm text-amber-950">
          {t("missing", {
            count: missing.length,
            list: missing.length <= 3 ? `: ${missing.map((f) => f.label ?? f.type.replace("_", " ")).join(", ")}` : "",
          })}
        </p>
      ) : null}
      {error && !signed ? (
        <div id={`${id}-error`} role="alert" className="mt-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p>{error.message}</p>
          {error.reason === "document_changed" ? (
            <button
              type="button"
              onClick={() => window.location.reload()}
              className="mt-2 min-h-11 rounded-md border border-red-300 bg-white px-4 py-2 text-sm font-semibold text-red-900 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-800"
            >
              {t("reload")}
            </button>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}
