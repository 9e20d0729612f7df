"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import type { PageViewport } from "pdfjs-dist";
import { DocumentsViewer, type ViewerDocument } from "@/components/pdf-viewer/documents-viewer";
import { pdfRectToScreen } from "@/components/pdf-viewer/field-geometry";
import { formatSignedDate } from "@/lib/fields/format-signed-date";
import { isFieldFilled } from "@/lib/fields/is-field-filled";
import type { FieldType } from "@/db/values/field-type-values";
import { initialsFor, useSignerFields, type FieldsContext, type SignerField } from "./signer-fields-context";
import { SIGNATURE_FONT_STYLES } from "./signature-font-styles";
import { focusRing } from "@/components/ui/classes";

/** Scrolls to and focuses a field's control once its document and page are on screen. */
function focusField(fieldId: string) {
  const started = performance.now();
  const attempt = () => {
    const el = document.getElementById(`signer-field-${fieldId}`);
    if (el) {
      el.scrollIntoView({ block: "center", inline: "nearest" });
      el.focus({ preventScroll: true });
      return;
    }
    if (performance.now() - started < 8000) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}

/**
 * The package's documents with the signer's fields drawn over the pages, and a "Next field" guide
 * that opens the document of the next required field left empty, scrolls to it and focuses it.
 */
export function SignerDocuments({ documents, canSign }: { documents: ViewerDocument[]; canSign: boolean }) {
  const ctx = useSignerFields()!;
  const t = useTranslations("fields");
  const [announcement, setAnnouncement] = useState("");
  const order = documents.map((d) => d.id);
  const open = ctx.fields
    .filter((f) => f.required && !ctx.signedDocuments.has(f.documentId) && !isFieldFilled({ type: f.type, value: ctx.values[f.id] ?? null }))
    .sort((a, b) => order.indexOf(a.documentId) - order.indexOf(b.documentId));

  function next() {
    const active = typeof document !== "undefined" ? document.activeElement?.id : undefined;
    const index = open.findIndex((f) => `signer-field-${f.id}` === active);
    const target = open[(index + 1) % open.length] ?? open[0];
    if (!target) return;
    ctx.setSelectedDocumentId(target.documentId);
    const name = documents.find((d) => d.id === target.documentId)?.name ?? t("theDocument");
    setAnnouncement(t("whereIs", { field: target.label ?? t("noun", { type: target.type }), page: target.page, document: name }));
    focusField(target.id);
  }

  const renderOverlay = (documentId: string, page: number, viewport: PageViewport) => {
    const onPage = ctx.fields.filter((f) => f.documentId === documentId && f.page === page);
    if (onPage.length === 0) return null;
    return (
      <div className="pointer-events-none absolute inset-0 z-10">
        {onPage.map((field) => (
          <FieldControl key={field.id} field={field} viewport={viewport} ctx={ctx} disabled={!canSign || ctx.signedDocuments.has(field.documentId)} />
        ))}
      </div>
    );
  };

  return (
    <div className="space-y-2">
      {canSign && ctx.fields.some((f) => !ctx.signedDocuments.has(f.documentId)) ? (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-blue-200 bg-blue-50 px-3 py-2">
          <p className="text-sm text-blue-950">
            {open.length === 0 ? t("allFilled") : t("toFill", { count: open.length })}
          </p>
          <button
            type="button"
            onClick={next}
            disabled={open.length === 0}
            className={`min-h-10 rounded-md bg-[var(--brand-color,#1d4ed8)] px-4 py-2 text-sm font-semibold text-white hover:brightness-90 ${focusRing} disabled:bg-slate-500`}
          >
            {t("nextField")}
          </button>
        </div>
      ) : null}
      <DocumentsViewer
        documents={documents}
        selectedId={ctx.selectedDocumentId}
        onSelect={ctx.setSelectedDocumentId}
        initialDocumentId={ctx.selectedDocumentId}
        renderOverlay={renderOverlay}
      />
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}

function FieldControl({ field, viewport, ctx, disabled }: { field: SignerField; viewport: PageViewport; ctx: FieldsContext; disabled: boolean }) {
  const t = useTranslations("fields");
  const fieldNoun = (type: FieldType) => t("noun", { type });
  const screen = pdfRectToScreen(field, viewport);
  const fontSize = Math.max(8, Math.min(16, screen.height * 0.6));
  const value = ctx.values[field.id] ?? "";
  const filled = isFieldFilled({ type: field.type, value: field.type === "text" || field.type === "checkbox" || field.type === "initials" ? value || null : "x" });
  const label = t("label", { field: field.label ?? fieldNoun(field.type), required: field.required ? "yes" : "no" });
  const style = { left: screen.left, top: screen.top, width: screen.width, height: screen.height, fontSize };
  // Opaque, so the page's own text underneath does not read as a value; amber until a required field is filled.
  const frame = `pointer-events-auto absolute rounded-sm border-2 ${
    field.required && !filled ? "border-amber-600 bg-amber-50" : "border-blue-700 bg-white"
  } focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-800`;
  const domId = `signer-field-${field.id}`;

  switch (field.type) {
    case "text":
      return (
        <input
          id={domId}
          type="text"
          aria-label={label}
          required={field.required}
          disabled={disabled}
          maxLength={500}
          value={value}
          placeholder={field.label ?? t("textPlaceholder")}
          onChange={(e) => ctx.setValue(field.id, e.target.value)}
          // On a phone at fit width a field can be a few pixels high: while focused it grows to a usable size over the page.
          className={`${frame} px-1 text-slate-950 placeholder:text-slate-600 focus:z-20 focus:min-h-10 focus:min-w-48 focus:!text-base focus:shadow-lg`}
          style={style}
        />
      );
    case "checkbox":
      return (
        <span className={`${frame} flex items-center justify-center`} style={style}>
          <input
            id={domId}
            type="checkbox"
            aria-label={label}
            required={field.required}
            disabled={disabled}
            checked={value === "true"}
            onChange={(e) => ctx.setValue(field.id, e.target.checked ? "true" : "false")}
            className="h-[80%] w-[80%]"
          />
        </span>
      );
    case "initials": {
      const initials = initialsFor(ctx.signature, ctx.signerName);
      const font = ctx.signature?.kind === "typed" ? SIGNATURE_FONT_STYLES[ctx.signature.font].fontFamily : undefined;
      return (
        <button
          id={domId}
          type="button"
          disabled={disabled}
          aria-pressed={Boolean(value)}
          aria-label={value ? t("initialsRemove", { label, value }) : t("initialsAdd", { label, initials })}
          onClick={() => ctx.setValue(field.id, value ? "" : initials)}
          className={`${frame} flex items-center justify-center font-semibold text-slate-950`}
          style={{ ...style, fontFamily: value ? font : undefined }}
        >
          {value || t("initialPlaceholder")}
        </button>
      );
    }
    case "signature":
      return (
        <span id={domId} tabIndex={-1} role="img" aria-label={ctx.signature ? t("signatureHere") : t("signatureHereAdopt")} className={`${frame} flex items-center overflow-hidden px-1`} style={style}>
          {ctx.signature?.kind === "drawn" ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img src={ctx.signature.imageDataUrl} alt="" className="h-full max-w-full object-contain object-left" />
          ) : ctx.signature?.kind === "typed" ? (
            <span className="truncate text-slate-950" style={{ fontFamily: SIGNATURE_FONT_STYLES[ctx.signature.font].fontFamily, fontSize: Math.max(10, screen.height * 0.7) }}>
              {ctx.signature.text}
            </span>
          ) : (
            <span className="text-slate-700">{t("signaturePlaceholder")}</span>
          )}
        </span>
      );
    case "date_signed":
    case "full_name": {
      const shown = field.value ?? (field.type === "full_name" ? ctx.signerName : formatSignedDate(new Date()));
      return (
        <span id={domId} tabIndex={-1} className={`${frame} flex items-center truncate px-1 text-slate-950`} style={style} suppressHydrationWarning>
          <span className="sr-only">{fieldNoun(field.type)}: </span>
          {shown}
        </span>
      );
    }
  }
}
