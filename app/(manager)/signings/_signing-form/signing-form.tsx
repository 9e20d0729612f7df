"use client";

import { startTransition, useActionState, useState, useSyncExternalStore, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { buttonClass } from "@/components/ui/button-class";
import { Dialog, DialogCloseButton } from "@/components/ui/dialog";
import { FormMessage, InputField, SelectField, TextAreaField } from "@/components/ui/field";
import { signingFormAction, type SigningFormState } from "./actions";
import { DocumentPicker, type PickedFile } from "./document-picker";
import { isBlankRow, signerRowsFromValues } from "./signer-rows";
import type { ExistingDocument, FlowOption, PlaceOption, SignerRow, TemplateOption } from "./types";

type Props = {
  /** The draft being edited; absent on /signings/new. */
  signing?: { id: string; locationId: number; locationLabel: string; templateName?: string };
  places: PlaceOption[];
  templates: TemplateOption[];
  flows: FlowOption[];
  documents: ExistingDocument[];
  initialValues: Record<string, string>;
  savedMessage?: string;
};

const subscribeNothing = () => () => {};
const IDLE: SigningFormState = { status: "idle" };
const blankRow = (order: number): SignerRow => ({ name: "", email: "", role: "signer", routingOrder: String(order) });
let nextRowKey = 1;
type KeyedRow = SignerRow & { key: number };
const keyed = (rows: SignerRow[]): KeyedRow[] => rows.map((row) => ({ ...row, key: nextRowKey++ }));

function sectionHeading(id: string, text: string, step: number) {
  return (
    <h2 id={id} className="text-lg font-semibold text-slate-900">
      <span className="mr-2 inline-flex h-6 w-6 items-center justify-center rounded-full bg-slate-200 text-sm" aria-hidden="true">
        {step}
      </span>
      {text}
    </h2>
  );
}

export function SigningForm({ signing, places, templates, flows, documents, initialValues, savedMessage }: Props) {
  const [state, formAction, pending] = useActionState(signingFormAction, IDLE);
  const values = (state.status === "error" ? state.values : state.status === "ok" ? state.data?.values : undefined) ?? initialValues;
  const fieldErrors = state.status === "error" ? state.fieldErrors : {};
  const hydrated = useSyncExternalStore(subscribeNothing, () => true, () => false);

  const [rows, setRows] = useState<KeyedRow[]>(() => {
    const fromValues = signerRowsFromValues(values);
    return keyed(fromValues.length > 0 ? fromValues : [blankRow(1)]);
  });
  const [locationId, setLocationId] = useState(values.locationId ?? (places.length === 1 ? String(places[0]!.id) : ""));
  const [templateId, setTemplateId] = useState(values.templateId ?? "");
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [removed, setRemoved] = useState<Set<string>>(() => new Set());

  const organizationId = signing ? undefined : places.find((p) => String(p.id) === locationId)?.organizationId;
  const visibleTemplates = templates.filter((t) => organizationId === undefined || t.organizationId === organizationId);
  const visibleFlows = flows.filter((f) => organizationId === undefined || f.organizationId === organizationId);
  const template = signing ? undefined : templates.find((t) => t.id === templateId);

  function applyTemplate(id: string) {
    setTemplateId(id);
    const roles = templates.find((t) => t.id === id)?.roles ?? [];
    if (roles.length === 0) return;
    setRows((current) => {
      const typed = current.filter((row) => !isBlankRow(row));
      const next = roles.map((role, i) => ({
        ...(typed[i] ?? { name: "", email: "", key: nextRowKey++ }),
        role: role.role,
        routingOrder: String(role.routingOrder),
        label: role.label,
      }));
      return [...next, ...typed.slice(roles.length)] as KeyedRow[];
    });
  }

  function updateRow(key: number, change: Partial<SignerRow>) {
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...change } : row)));
  }

  function move(index: number, by: -1 | 1) {
    setRows((current) => {
      const next = [...current];
      const a = next[index];
      const b = next[index + by];
      if (!a || !b) return current;
      next[index] = { ...b, routingOrder: a.routingOrder };
      next[index + by] = { ...a, routingOrder: b.routingOrder };
      return next;
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // Before hydration the browser posts the form itself (files from the input); afterwards the
    // checked files come from the picker's list and the form keeps what was typed.
    if (!hydrated) return;
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const formData = new FormData(event.currentTarget, submitter);
    formData.delete("files");
    for (const f of files) if (f.status !== "error") formData.append("files", f.file);
    startTransition(() => formAction(formData));
  }

  // What "Send" will do, from the form as it stands (the server checks again when sending).
  const filled = rows.filter((row) => !isBlankRow(row));
  const documentCount =
    documents.filter((d) => !removed.has(d.id)).length + (template?.documentNames.length ?? 0) + files.filter((f) => f.status !== "error").length;
  const orders = filled.map((row) => Number(row.routingOrder) || 1);
  const firstOrder = orders.length > 0 ? Math.min(...orders) : 1;
  const ready = filled.length > 0 && documentCount > 0;

  // Errors per row are keyed by the row's place among the filled rows (blank rows are not sent).
  let filledIndex = -1;
  const errorKeyOf = rows.map((row) => (isBlankRow(row) ? -1 : ++filledIndex));
  const rowsError = fieldErrors.signers;

  return (
    <form id="signing-form" action={formAction} onSubmit={onSubmit} className="space-y-8" noValidate>
      {signing ? (
        <>
          <input type="hidden" name="signingId" value={signing.id} />
          <input type="hidden" name="locationId" value={signing.locationId} />
        </>
      ) : null}
      <FormMessage state={state.status === "idle" && savedMessage ? { status: "ok", message: savedMessage } : state} id="signing-form-message" />

      <section aria-labelledby="where-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {sectionHeading("where-heading", "Where", 1)}
        {signing ? (
          <p className="text-sm text-slate-800">
            <span className="font-medium">Location:</span> {signing.locationLabel}
          </p>
        ) : places.length === 0 ? (
          <p className="text-sm text-slate-800">You manage no location, so you cannot create packages. Ask an administrator of your organization for a role.</p>
        ) : (
          <SelectField
            id="signing-location"
            name="locationId"
            label="Location"
            hint="Organization › company › location: the places you can send from."
            value={locationId}
            onChange={(event) => setLocationId(event.currentTarget.value)}
            error={fieldErrors.locationId}
            required
          >
            <option value="">Choose a location…</option>
            {[...new Set(places.map((p) => p.group))].map((group) => (
              <optgroup key={group} label={group}>
                {places
                  .filter((p) => p.group === group)
                  .map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.label}
                    </option>
                  ))}
              </optgroup>
            ))}
          </SelectField>
        )}
      </section>

      <section aria-labelledby="what-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {sectionHeading("what-heading", "What", 2)}
        <InputField
          id="signing-title"
          name="title"
          label="Title"
          hint={signing ? undefined : "Optional: the template's name, or “Signing at <location>”, when left empty."}
          defaultValue={values.title ?? ""}
          maxLength={200}
          error={fieldErrors.title}
        />
        <div className="grid gap-4 md:grid-cols-2">
          {signing ? (
            <p className="text-sm text-slate-800">
              <span className="font-medium">Template:</span> {signing.templateName ?? "none"}
            </p>
          ) : (
            <div className="space-y-2">
              <SelectField
                id="signing-template"
                name="templateId"
                label="Template"
                hint="Optional: adds the template's documents and signer roles."
                value={templateId}
                onChange={(event) => applyTemplate(event.currentTarget.value)}
                error={fieldErrors.templateId}
              >
                <option value="">No template</option>
                {visibleTemplates.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </SelectField>
              {hydrated ? null : (
                <button type="submit" name="intent" value="template" className={buttonClass("secondary")}>
                  Use the template&apos;s roles
                </button>
              )}
            </div>
          )}
          <SelectField id="signing-flow" name="flowId" label="Flow" defaultValue={values.flowId ?? ""} error={fieldErrors.flowId}>
            {signing && values.flowId ? null : <option value="">The organization&apos;s default flow</option>}
            {visibleFlows.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
                {f.isDefault ? " (default)" : ""}
              </option>
            ))}
          </SelectField>
        </div>
        <TextAreaField
          id="signing-message"
          name="message"
          label="Message to signers"
          hint="Optional: shown in the invitation email and on the package page."
          defaultValue={values.message ?? ""}
          rows={3}
          maxLength={2000}
          error={fieldErrors.message}
        />
      </section>

      <section aria-labelledby="who-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {sectionHeading("who-heading", "Who signs", 3)}
        <p className="text-sm text-slate-700">
          Signers are invited in routing order: order 1 first, order 2 once everyone in order 1 has signed. Signers with the same number sign in
          parallel.
        </p>
        {rowsError ? <p className="text-sm text-red-800">{rowsError}</p> : null}
        <ol className="space-y-4">
          {rows.map((row, i) => {
            const n = i + 1;
            const errorKey = errorKeyOf[i]!;
            const err = (field: string) => (errorKey >= 0 ? fieldErrors[`signers.${errorKey}.${field}`] : undefined);
            const prefix = `signers.${i}`;
            return (
              <li key={row.key}>
                <fieldset className="rounded-md border border-slate-300 p-4">
                  <legend className="px-1 text-sm font-semibold text-slate-900">
                    Signer {n}
                    {row.label ? ` — ${row.label}` : ""}
                  </legend>
                  {row.id ? <input type="hidden" name={`${prefix}.id`} value={row.id} /> : null}
                  {row.label ? <input type="hidden" name={`${prefix}.label`} value={row.label} /> : null}
                  <div className="grid gap-3 md:grid-cols-[2fr_2fr_1fr_6rem]">
                    <InputField
                      id={`signer-${row.key}-name`}
                      name={`${prefix}.name`}
                      label={<><span className="sr-only">Signer {n} </span>Name</>}
                      value={row.name}
                      onChange={(event) => updateRow(row.key, { name: event.currentTarget.value })}
                      autoComplete="off"
                      maxLength={200}
                      error={err("name")}
                    />
                    <InputField
                      id={`signer-${row.key}-email`}
                      name={`${prefix}.email`}
                      type="email"
                      label={<><span className="sr-only">Signer {n} </span>Email</>}
                      value={row.email}
                      onChange={(event) => updateRow(row.key, { email: event.currentTarget.value })}
                      autoComplete="off"
                      maxLength={320}
                      error={err("email")}
                    />
                    <SelectField
                      id={`signer-${row.key}-role`}
                      name={`${prefix}.role`}
                      label={<><span className="sr-only">Signer {n} </span>Role</>}
                      value={row.role}
                      onChange={(event) => updateRow(row.key, { role: event.currentTarget.value })}
                      error={err("role")}
                    >
                      <option value="signer">Signer</option>
                      <option value="co_signer">Co-signer</option>
                    </SelectField>
                    <InputField
                      id={`signer-${row.key}-order`}
                      name={`${prefix}.routingOrder`}
                      type="number"
                      min={1}
                      max={100}
                      inputMode="numeric"
                      label={<><span className="sr-only">Signer {n} </span>Order</>}
                      value={row.routingOrder}
                      onChange={(event) => updateRow(row.key, { routingOrder: event.currentTarget.value })}
                      error={err("routingOrder")}
                    />
                  </div>
                  <div className="mt-3 flex flex-wrap gap-2">
                    <RowButton hydrated={hydrated} intent={`up:${i}`} disabled={i === 0} onClick={() => move(i, -1)}>
                      Move up<span className="sr-only"> signer {n}</span>
                    </RowButton>
                    <RowButton
                      hydrated={hydrated}
                      intent={`down:${i}`}
                      disabled={i === rows.length - 1}
                      onClick={() => move(i, 1)}
                    >
                      Move down<span className="sr-only"> signer {n}</span>
                    </RowButton>
                    <RowButton
                      hydrated={hydrated}
                      intent={`remove:${i}`}
                      onClick={() => setRows((current) => (current.length > 1 ? current.filter((r) => r.key !== row.key) : keyed([blankRow(1)])))}
                    >
                      Remove<span className="sr-only"> signer {n}</span>
                    </RowButton>
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ol>
        <RowButton
          hydrated={hydrated}
          intent="add-signer"
          onClick={() =>
            setRows((current) => [...current, ...keyed([blankRow((Number(current.at(-1)?.routingOrder) || 0) + 1)])])
          }
        >
          Add signer
        </RowButton>
      </section>

      <section aria-labelledby="documents-heading" className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        {sectionHeading("documents-heading", "Documents", 4)}
        {template && template.documentNames.length > 0 ? (
          <p className="text-sm text-slate-800">
            From the template, first: {template.documentNames.join(", ")}.
          </p>
        ) : null}
        {documents.length > 0 ? (
          <ul aria-label="Attached documents" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {documents.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center gap-3 px-4 py-3 text-sm">
                <span className={`min-w-0 flex-1 break-all font-medium ${removed.has(d.id) ? "text-slate-500 line-through" : "text-slate-900"}`}>{d.name}</span>
                <span className="text-slate-700">
                  {d.pageCount} {d.pageCount === 1 ? "page" : "pages"}
                </span>
                <label className="inline-flex items-center gap-2 text-slate-900">
                  <input
                    type="checkbox"
                    name="removeDocument"
                    value={d.id}
                    className="h-4 w-4"
                    onChange={(event) => {
                      const checked = event.currentTarget.checked;
                      setRemoved((current) => {
                        const next = new Set(current);
                        if (checked) next.add(d.id);
                        else next.delete(d.id);
                        return next;
                      });
                    }}
                  />
                  Remove <span className="sr-only">{d.name}</span> when saving
                </label>
              </li>
            ))}
          </ul>
        ) : null}
        <DocumentPicker files={files} onChange={setFiles} hydrated={hydrated} error={fieldErrors.files} />
      </section>

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6">
        <button type="submit" name="intent" value="save" disabled={pending} className={buttonClass("secondary")}>
          {pending ? "Saving…" : "Save draft"}
        </button>
        <Dialog
          id="send-check"
          title="Send this package?"
          openLabel="Send…"
          openVariant="primary"
          description={ready ? "Each signer receives an invitation email when their turn comes." : "The package is not ready to send yet."}
        >
          <ul className="space-y-1 text-sm" aria-label="Checks before sending">
            <CheckItem ok={filled.length > 0}>
              {filled.length > 0 ? `${filled.length} ${filled.length === 1 ? "signer" : "signers"}` : "Add at least one signer."}
            </CheckItem>
            <CheckItem ok={documentCount > 0}>
              {documentCount > 0 ? `${documentCount} ${documentCount === 1 ? "document" : "documents"}` : "Add at least one document."}
            </CheckItem>
            <CheckItem ok={documentCount > 0 && filled.length > 0}>
              {documentCount > 0 ? "Every signer has something to sign: each signs every document." : "Signers have nothing to sign yet."}
            </CheckItem>
          </ul>
          {filled.length > 0 ? (
            <>
              <h3 className="mt-4 text-sm font-semibold text-slate-900">What each signer receives</h3>
              <ul className="mt-1 space-y-1 text-sm text-slate-800">
                {filled.map((row, i) => (
                  <li key={i}>
                    <span className="font-medium">{row.name || "(no name)"}</span> ({row.email || "no email"}), order {row.routingOrder}:{" "}
                    {(Number(row.routingOrder) || 1) === firstOrder ? "an invitation email now" : `an invitation email once order ${firstOrder} has signed`}, to
                    sign {documentCount} {documentCount === 1 ? "document" : "documents"}.
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            <DialogCloseButton>Keep editing</DialogCloseButton>
            <button type="submit" form="signing-form" name="intent" value="send" disabled={!ready || pending} className={buttonClass("primary")}>
              {pending ? "Sending…" : "Send now"}
            </button>
          </div>
        </Dialog>
      </div>
    </form>
  );
}

function CheckItem({ ok, children }: { ok: boolean; children: React.ReactNode }) {
  return (
    <li className={ok ? "text-green-900" : "font-medium text-red-800"}>
      <span aria-hidden="true">{ok ? "✓ " : "✗ "}</span>
      <span className="sr-only">{ok ? "Done: " : "Missing: "}</span>
      {children}
    </li>
  );
}

/** Before hydration a submit button that round-trips through the action; afterwards a local change. */
function RowButton({
  hydrated,
  intent,
  disabled,
  onClick,
  children,
}: {
  hydrated: boolean;
  intent: string;
  disabled?: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  if (!hydrated) {
    return (
      <button type="submit" name="intent" value={intent} disabled={disabled} className={buttonClass("secondary", "px-3 py-1.5")}>
        {children}
      </button>
    );
  }
  return (
    <Button variant="secondary" className="px-3 py-1.5" disabled={disabled} onClick={onClick}>
      {children}
    </Button>
  );
}
