"use client";

import { useActionState, useCallback, useEffect, useId, useMemo, useRef, useState } from "react";
import type { PageViewport } from "pdfjs-dist";
import { DocumentsViewer } from "@/components/pdf-viewer/documents-viewer";
import { clampToPage, pageBoxOf, pdfRectToScreen, roundRect, type PdfRect } from "@/components/pdf-viewer/field-geometry";
import { Button, SubmitButton } from "@/components/ui/button";
import { focusRing } from "@/components/ui/classes";
import { FormMessage, InputField, SelectField } from "@/components/ui/field";
import type { FormState } from "@/components/ui/form-state";
import { FIELD_TYPES, fieldTypeLabel, type FieldType } from "./field-types";
import { useFieldGestures } from "./use-field-gestures";

/** Who fills a field: a package's signer (`signerId`) or a template's role (`roleKey`). */
export type EditorParty = { key: string; name: string };
export type EditorField = PdfRect & { key: string; party: string; type: FieldType; page: number; required: boolean; label: string };
export type EditorDocument = { id: string; name: string; pageCount: number; fileUrl: string; fields: EditorField[] };

export type FieldEditorProps = {
  documents: EditorDocument[];
  parties: EditorParty[];
  /** "Signer" for a package, "Role" for a template. */
  partyNoun: string;
  /** The JSON key each saved field names its party with. */
  partyField: "signerId" | "roleKey";
  /** Hidden inputs the save action needs besides documentId and fields (e.g. signingId). */
  hidden: Record<string, string>;
  action: (state: FormState, formData: FormData) => Promise<FormState>;
  readOnly?: string | null;
};

/** Outline colours per party (the party's initials are printed too, so colour is never the only signal). */
const PARTY_COLOURS = ["border-blue-700 bg-blue-100/70 text-blue-950", "border-emerald-700 bg-emerald-100/70 text-emerald-950", "border-purple-700 bg-purple-100/70 text-purple-950", "border-amber-700 bg-amber-100/70 text-amber-950", "border-rose-700 bg-rose-100/70 text-rose-950"];

function initials(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 3)
    .map((w) => w[0]!.toUpperCase())
    .join("");
}

let counter = 0;
const newKey = () => `new-${Date.now().toString(36)}-${++counter}`;

/**
 * Places fields on the pages of a package's or a template's documents: drag a type from the palette
 * onto a page (or use "Add"), drag a field to move it, its corner to resize it; with the keyboard,
 * select a field and move it with the arrow keys (Shift: 10 points), Delete removes it, and the form
 * sets page, position and size in points. Positions are kept in PDF user space (zoom-independent)
 * and saved per document through `action`, which calls the same domain function as `/v1`.
 */
export function FieldEditor({ documents, parties, partyNoun, partyField, hidden, action, readOnly }: FieldEditorProps) {
  const id = useId();
  const [selectedDoc, setSelectedDoc] = useState(documents[0]?.id ?? "");
  const [fieldsByDoc, setFieldsByDoc] = useState<Record<string, EditorField[]>>(() => Object.fromEntries(documents.map((d) => [d.id, d.fields])));
  const [dirty, setDirty] = useState<Record<string, boolean>>({});
  const [party, setParty] = useState(parties[0]?.key ?? "");
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [addPage, setAddPage] = useState("1");
  const [announcement, setAnnouncement] = useState("");
  const [state, dispatch] = useActionState(action, { status: "idle" } as FormState);
  // The document whose save is in flight: it is clean again only when the save succeeded.
  const saving = useRef<string | null>(null);
  useEffect(() => {
    const saved = saving.current;
    if (!saved || state.status === "idle") return;
    saving.current = null;
    if (state.status === "ok") setDirty((d) => ({ ...d, [saved]: false }));
  }, [state]);
  const boxes = useRef<Record<string, { width: number; height: number }>>({});

  const doc = documents.find((d) => d.id === selectedDoc) ?? documents[0];
  const fields = useMemo(() => (doc ? (fieldsByDoc[doc.id] ?? []) : []), [doc, fieldsByDoc]);
  const selected = fields.find((f) => f.key === selectedKey) ?? null;
  const partyIndex = (key: string) => Math.max(0, parties.findIndex((p) => p.key === key));
  const partyName = (key: string) => parties.find((p) => p.key === key)?.name ?? "Unassigned";
  const editable = !readOnly;

  const update = useCallback(
    (change: (list: EditorField[]) => EditorField[]) => {
      if (!doc) return;
      setFieldsByDoc((all) => ({ ...all, [doc.id]: change(all[doc.id] ?? []) }));
      setDirty((d) => ({ ...d, [doc.id]: true }));
    },
    [doc],
  );
  const patch = (key: string, values: Partial<EditorField>) => update((list) => list.map((f) => (f.key === key ? { ...f, ...values } : f)));

  function addField(type: FieldType, page: number, rect?: PdfRect) {
    if (!doc || !party) return;
    const defaults = FIELD_TYPES.find((t) => t.type === type)!;
    const box = boxes.current[`${doc.id}:${page}`];
    const base = rect ?? { x: 36, y: 36, width: defaults.width, height: defaults.height };
    const placed = roundRect(box ? clampToPage(base, box) : base);
    const field: EditorField = { key: newKey(), party, type, page, required: true, label: "", ...placed };
    update((list) => [...list, field]);
    setSelectedKey(field.key);
    setAnnouncement(`${defaults.label} field for ${partyName(party)} added on page ${page}.`);
  }

  function remove(key: string) {
    const field = fields.find((f) => f.key === key);
    update((list) => list.filter((f) => f.key !== key));
    setSelectedKey(null);
    if (field) setAnnouncement(`${fieldTypeLabel(field.type)} field on page ${field.page} removed.`);
  }

  const gestures = useFieldGestures({
    editable,
    select: setSelectedKey,
    place: (key, rect) => patch(key, rect),
    remove,
    add: addField,
    announce: setAnnouncement,
  });

  const renderOverlay = (documentId: string, page: number, viewport: PageViewport) => {
    boxes.current[`${documentId}:${page}`] = pageBoxOf(viewport);
    const onPage = (fieldsByDoc[documentId] ?? []).filter((f) => f.page === page);
    return (
      <div
        className="absolute inset-0 z-10"
        data-field-drop-page={page}
        {...gestures.dropTargetProps(page, viewport)}
      >
        {onPage.map((field) => {
          const screen = pdfRectToScreen(field, viewport);
          const isSelected = field.key === selectedKey;
          const who = partyName(field.party);
          return (
            <div
              key={field.key}
              className="absolute"
              style={{ left: screen.left, top: screen.top, width: screen.width, height: screen.height }}
            >
              <button
                type="button"
                data-field-key={field.key}
                aria-pressed={isSelected}
                aria-label={`${fieldTypeLabel(field.type)}${field.label ? ` “${field.label}”` : ""} for ${who}, page ${page}${field.required ? "" : ", optional"}`}
                onClick={() => setSelectedKey(field.key)}
                {...gestures.fieldProps(field, viewport)}
                className={`flex h-full w-full touch-none items-center justify-start overflow-hidden rounded-sm border-2 px-1 text-left text-[11px] leading-tight font-semibold ${PARTY_COLOURS[partyIndex(field.party) % PARTY_COLOURS.length]} ${
                  isSelected ? "outline-2 outline-offset-2 outline-slate-950" : ""
                } ${editable ? "cursor-move" : "cursor-default"} focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-950`}
              >
                <span className="truncate">{fieldTypeLabel(field.type)}</span>
              </button>
              {/* Whose field, in text beside the outline: colour is never the only signal. */}
              <span aria-hidden="true" className="pointer-events-none absolute -top-2.5 -right-1 rounded-sm border border-slate-400 bg-white px-0.5 text-[9px] leading-tight font-bold text-slate-900">
                {initials(who)}
              </span>
              {editable && isSelected ? (
                <span
                  aria-hidden="true"
                  data-resize-handle
                  {...gestures.resizeHandleProps(field, viewport)}
                  className="absolute -right-1.5 -bottom-1.5 h-3 w-3 cursor-nwse-resize touch-none rounded-sm border border-white bg-slate-950"
                />
              ) : null}
            </div>
          );
        })}
      </div>
    );
  };

  if (!doc) {
    return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">Add a document first: fields are placed on document pages.</p>;
  }

  const payload = JSON.stringify(
    fields.map((f) => ({ [partyField]: f.party, type: f.type, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, required: f.required, label: f.label.trim() || null })),
  );
  const messageId = `${id}-message`;
  const pageCount = doc.pageCount;

  return (
    <div className="grid gap-6 lg:grid-cols-[300px_minmax(0,1fr)]">
      <div className="space-y-5 lg:sticky lg:top-4 lg:self-start">
        {readOnly ? (
          <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">{readOnly}</p>
        ) : (
          <section aria-labelledby={`${id}-palette`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <h2 id={`${id}-palette`} className="text-base font-semibold text-slate-900">
              Add fields
            </h2>
            <SelectField id={`${id}-party`} label={`For ${partyNoun.toLowerCase()}`} value={party} onChange={(e) => setParty(e.target.value)}>
              {parties.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.name}
                </option>
              ))}
            </SelectField>
            <InputField
              id={`${id}-add-page`}
              label="On page"
              type="number"
              min={1}
              max={pageCount}
              value={addPage}
              onChange={(e) => setAddPage(e.target.value)}
              hint="Drag a type onto a page, or press it to add it to this page."
            />
            <ul className="grid grid-cols-2 gap-2" aria-label="Field types">
              {FIELD_TYPES.map((t) => (
                <li key={t.type}>
                  <button
                    type="button"
                    disabled={!party}
                    {...gestures.paletteItemProps(t.type)}
                    onClick={() => addField(t.type, Math.min(pageCount, Math.max(1, Number.parseInt(addPage, 10) || 1)))}
                    className={`w-full cursor-grab rounded-md border border-slate-400 bg-white px-2 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50 ${focusRing} disabled:opacity-50`}
                  >
                    {t.label}
                  </button>
                </li>
              ))}
            </ul>
            {parties.length === 0 ? <p className="text-sm text-red-800">Add a {partyNoun.toLowerCase()} first: every field belongs to one.</p> : null}
          </section>
        )}

        {selected && editable ? (
          <section aria-labelledby={`${id}-selected`} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <h2 id={`${id}-selected`} className="text-base font-semibold text-slate-900">
              Selected: {fieldTypeLabel(selected.type)}
            </h2>
            <p className="text-xs text-slate-600">Arrow keys move the selected field by 1 point (Shift: 10); Delete removes it.</p>
            <SelectField id={`${id}-sel-party`} label={partyNoun} value={selected.party} onChange={(e) => patch(selected.key, { party: e.target.value })}>
              {parties.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.name}
                </option>
              ))}
            </SelectField>
            <SelectField id={`${id}-sel-type`} label="Type" value={selected.type} onChange={(e) => patch(selected.key, { type: e.target.value as FieldType })}>
              {FIELD_TYPES.map((t) => (
                <option key={t.type} value={t.type}>
                  {t.label}
                </option>
              ))}
            </SelectField>
            <div className="grid grid-cols-2 gap-2">
              <NumberInput id={`${id}-sel-page`} label="Page" value={selected.page} min={1} max={pageCount} step={1} onValue={(v) => patch(selected.key, { page: Math.round(v) })} />
              <NumberInput id={`${id}-sel-x`} label="X (pt)" value={selected.x} min={0} onValue={(v) => patch(selected.key, { x: v })} />
              <NumberInput id={`${id}-sel-y`} label="Y (pt)" value={selected.y} min={0} onValue={(v) => patch(selected.key, { y: v })} />
              <NumberInput id={`${id}-sel-w`} label="Width (pt)" value={selected.width} min={8} onValue={(v) => patch(selected.key, { width: v })} />
              <NumberInput id={`${id}-sel-h`} label="Height (pt)" value={selected.height} min={8} onValue={(v) => patch(selected.key, { height: v })} />
            </div>
            <InputField id={`${id}-sel-label`} label="Label (shown to the signer)" value={selected.label} maxLength={100} onChange={(e) => patch(selected.key, { label: e.target.value })} />
            <label className="flex items-center gap-2 text-sm text-slate-900">
              <input type="checkbox" className="h-4 w-4" checked={selected.required} onChange={(e) => patch(selected.key, { required: e.target.checked })} />
              Required
            </label>
            <Button variant="danger" onClick={() => remove(selected.key)}>
              Remove field
            </Button>
          </section>
        ) : null}

        <section aria-labelledby={`${id}-list`} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <h2 id={`${id}-list`} className="text-base font-semibold text-slate-900">
            Fields on {doc.name} ({fields.length})
          </h2>
          {fields.length === 0 ? (
            <p className="text-sm text-slate-700">No fields yet. Without fields, each signer signs in a signature block added to the document.</p>
          ) : (
            <ol className="space-y-1 text-sm">
              {fields.map((f) => (
                <li key={f.key}>
                  <button
                    type="button"
                    onClick={() => {
                      setSelectedKey(f.key);
                      document.querySelector<HTMLElement>(`[data-field-key="${f.key}"]`)?.focus();
                    }}
                    aria-pressed={f.key === selectedKey}
                    className={`w-full rounded px-2 py-1 text-left text-slate-900 hover:bg-slate-100 aria-pressed:bg-slate-200 ${focusRing}`}
                  >
                    {fieldTypeLabel(f.type)}
                    {f.label ? ` “${f.label}”` : ""} — {partyName(f.party)}, page {f.page}
                    {f.required ? "" : " (optional)"}
                  </button>
                </li>
              ))}
            </ol>
          )}
          {editable ? (
            <form action={dispatch} className="space-y-2 pt-2" onSubmit={() => (saving.current = doc.id)}>
              {Object.entries(hidden).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              <input type="hidden" name="documentId" value={doc.id} />
              <input type="hidden" name="fields" value={payload} />
              <SubmitButton pendingLabel="Saving…" aria-describedby={messageId}>
                Save fields on {doc.name}
              </SubmitButton>
              {dirty[doc.id] ? <p className="text-xs text-amber-900">Unsaved changes on this document.</p> : null}
              <FormMessage id={messageId} state={state} />
            </form>
          ) : null}
        </section>
      </div>

      <section aria-label="Document pages" className="min-w-0">
        <DocumentsViewer
          documents={documents.map((d) => ({
            id: d.id,
            name: d.name,
            pageCount: d.pageCount,
            fileUrl: d.fileUrl,
            downloadUrl: d.fileUrl,
            status: `${(fieldsByDoc[d.id] ?? []).length} fields${dirty[d.id] ? ", unsaved" : ""}`,
          }))}
          selectedId={doc.id}
          onSelect={(next) => {
            setSelectedDoc(next);
            setSelectedKey(null);
          }}
          renderOverlay={renderOverlay}
        />
      </section>
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </div>
  );
}

function NumberInput({ id, label, value, min, max, step = 0.5, onValue }: { id: string; label: string; value: number; min?: number; max?: number; step?: number; onValue: (v: number) => void }) {
  return (
    <InputField
      id={id}
      label={label}
      type="number"
      inputMode="decimal"
      value={value}
      min={min}
      max={max}
      step={step}
      onChange={(e) => {
        const v = Number.parseFloat(e.target.value);
        if (Number.isFinite(v)) onValue(v);
      }}
    />
  );
}
