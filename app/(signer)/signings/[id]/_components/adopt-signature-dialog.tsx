"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { SIGNATURE_FONTS, type SignatureFont } from "@/lib/signature-images/signature-fonts";
import type { AdoptedSignature } from "./adopted-signature";
import { SignatureDrawPad, type DrawPadHandle } from "./signature-draw-pad";
import { SIGNATURE_FONT_STYLES } from "./signature-font-styles";
import { focusRing } from "@/components/ui/classes";

type Mode = "type" | "draw";
const MODES: Mode[] = ["type", "draw"];

/**
 * The content of the "Adopt your signature" dialog (the sign panel's `Dialog`): typed (the allowed
 * fonts with a live preview of the name) or drawn (signature_pad). Loaded on demand and mounted only
 * while the dialog is open, so signature_pad is not part of the page's first load and each opening
 * starts from the adopted signature.
 */
export default function AdoptSignatureForm({
  signerName,
  initial,
  onAdopt,
  onCancel,
}: {
  signerName: string;
  initial: AdoptedSignature | null;
  onAdopt: (signature: AdoptedSignature) => void;
  onCancel: () => void;
}) {
  const t = useTranslations("adopt");
  const id = useId();
  const padRef = useRef<DrawPadHandle>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const tabRefs = useRef<Record<Mode, HTMLButtonElement | null>>({ type: null, draw: null });
  const [mode, setMode] = useState<Mode>(initial?.kind === "drawn" ? "draw" : "type");
  const [text, setText] = useState(initial?.kind === "typed" ? initial.text : signerName);
  const [font, setFont] = useState<SignatureFont>(initial?.kind === "typed" ? initial.font : SIGNATURE_FONTS[0]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // The dialog opened before this loaded and focused its first control (the Type tab): start the
    // signer on the name instead.
    if (nameRef.current && !nameRef.current.closest("[hidden]")) nameRef.current.focus();
  }, []);

  function selectMode(next: Mode) {
    setMode(next);
    setError(null);
    tabRefs.current[next]?.focus();
  }

  function onTabKey(event: KeyboardEvent<HTMLButtonElement>) {
    const index = MODES.indexOf(mode);
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (event.key === "Home" || event.key === "End") {
      event.preventDefault();
      selectMode(MODES[event.key === "Home" ? 0 : MODES.length - 1]!);
    } else if (step) {
      event.preventDefault();
      selectMode(MODES[(index + step + MODES.length) % MODES.length]!);
    }
  }

  function adopt() {
    if (mode === "type") {
      const name = text.trim();
      if (!name) return setError(t("nameEmpty"));
      if (name.length > 200) return setError(t("nameTooLong"));
      return onAdopt({ kind: "typed", text: name, font });
    }
    const result = padRef.current?.exportPng();
    if (!result) return;
    if (!result.ok) return setError(t(result.reason));
    onAdopt({ kind: "drawn", imageDataUrl: result.imageDataUrl });
  }

  const errorId = `${id}-error`;
  const panelClass = "space-y-4 pt-4";
  return (
    <>
      <div role="tablist" aria-label={t("how")} className="flex gap-1 border-b border-slate-300">
        {MODES.map((m) => (
          <button
            key={m}
            ref={(el) => {
              tabRefs.current[m] = el;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${m}`}
            aria-selected={mode === m}
            aria-controls={`${id}-panel-${m}`}
            tabIndex={mode === m ? 0 : -1}
            onClick={() => selectMode(m)}
            onKeyDown={onTabKey}
            className={`-mb-px min-h-11 border-b-2 px-4 py-2 text-sm font-semibold aria-selected:border-blue-700 aria-selected:text-blue-800 aria-[selected=false]:border-transparent aria-[selected=false]:text-slate-700 ${focusRing}`}
          >
            {t(m)}
          </button>
        ))}
      </div>

      <div role="tabpanel" id={`${id}-panel-type`} aria-labelledby={`${id}-tab-type`} hidden={mode !== "type"} className={panelClass}>
        <div className="space-y-1">
          <label htmlFor={`${id}-name`} className="block text-sm font-medium">
            {t("nameLabel")}
          </label>
          <input
            id={`${id}-name`}
            value={text}
            maxLength={200}
            ref={nameRef}
            autoComplete="name"
            onChange={(event) => {
              setText(event.target.value);
              setError(null);
            }}
            aria-invalid={error && mode === "type" ? true : undefined}
            aria-describedby={error && mode === "type" ? errorId : undefined}
            className="block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base shadow-sm focus:border-blue-600 focus:outline-2 focus:outline-blue-600"
          />
        </div>
        <fieldset>
          <legend className="text-sm font-medium">{t("style")}</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {SIGNATURE_FONTS.map((f) => (
              <label
                key={f}
                className="flex min-h-16 cursor-pointer items-center gap-3 rounded-md border border-slate-300 px-3 py-2 has-checked:border-blue-700 has-checked:bg-blue-50 has-focus-visible:outline-2 has-focus-visible:outline-blue-700"
              >
                <input type="radio" name={`${id}-font`} value={f} checked={font === f} onChange={() => setFont(f)} className="size-4 shrink-0 accent-blue-700" />
                <span className="min-w-0">
                  <span className="block truncate text-2xl leading-snug" style={{ fontFamily: SIGNATURE_FONT_STYLES[f].fontFamily }} aria-hidden="true">
                    {text.trim() || signerName}
                  </span>
                  <span className="block text-xs text-slate-700">{SIGNATURE_FONT_STYLES[f].label}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </div>

      <div role="tabpanel" id={`${id}-panel-draw`} aria-labelledby={`${id}-tab-draw`} hidden={mode !== "draw"} className={panelClass}>
        <p id={`${id}-draw-hint`} className="text-sm text-slate-700">
          {t("drawHint")}
        </p>
        <SignatureDrawPad ref={padRef} describedBy={error && mode === "draw" ? `${id}-draw-hint ${errorId}` : `${id}-draw-hint`} />
      </div>

      <p id={errorId} role="alert" className="mt-3 min-h-5 text-sm font-medium text-red-800">
        {error}
      </p>

      <p className="mt-2 text-xs text-slate-700">
        {t("agreement")}
      </p>
      <div className="mt-4 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <button
          type="button"
          onClick={onCancel}
          className={`min-h-11 rounded-md border border-slate-400 bg-white px-4 py-2 text-sm font-semibold text-slate-900 hover:bg-slate-100 ${focusRing}`}
        >
          {t("cancel")}
        </button>
        <button
          type="button"
          onClick={adopt}
          className={`min-h-11 rounded-md bg-[var(--brand-color,#1d4ed8)] px-4 py-2 text-sm font-semibold text-white hover:brightness-90 ${focusRing}`}
        >
          {t("adopt")}
        </button>
      </div>
    </>
  );
}
