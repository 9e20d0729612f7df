"use client";

import { startTransition, useActionState, useState, type FormEvent } from "react";
import { useHydrated } from "@/components/ui/use-hydrated";
import { buttonClass } from "@/components/ui/button-class";
import { FormMessage } from "@/components/ui/field";
import { signingFormAction, type SigningFormState } from "./actions";
import type { PickedFile } from "./document-picker";
import { ClosingSection } from "./closing-section";
import { DocumentsSection } from "./documents-section";
import { SendCheck } from "./send-check";
import { blankRow, isBlankRow, signerRowsFromValues, signerRowsReducer, type SignerRowAction } from "./signer-rows";
import { DEFAULT_PROOF_METHOD, SignerProofSelect } from "./signer-proof-select";
import { SignersSection, type KeyedRow } from "./signers-section";
import type { ExistingDocument, FlowOption, PlaceOption, SignerRow, TemplateOption } from "./types";
import { WhatSection } from "./what-section";
import { WhereSection } from "./where-section";

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

const IDLE: SigningFormState = { status: "idle" };
let nextRowKey = 1;
const keyed = (row: SignerRow): KeyedRow => ({ ...row, key: nextRowKey++ });
const reduceRows = signerRowsReducer<KeyedRow>(keyed);

/**
 * The manager's package form (new and draft edit): four numbered sections, Save draft, and Send…
 * with a check of what sending will do. Without JavaScript every button posts the form; the signer
 * row buttons then round-trip through the action, which applies the same row rules.
 */
export function SigningForm({ signing, places, templates, flows, documents, initialValues, savedMessage }: Props) {
  const [state, formAction, pending] = useActionState(signingFormAction, IDLE);
  const values = (state.status === "error" ? state.values : state.status === "ok" ? state.data?.values : undefined) ?? initialValues;
  const fieldErrors = state.status === "error" ? state.fieldErrors : {};
  const hydrated = useHydrated();

  const [rows, setRows] = useState<KeyedRow[]>(() => {
    const fromValues = signerRowsFromValues(values);
    return (fromValues.length > 0 ? fromValues : [blankRow(1)]).map(keyed);
  });
  const dispatch = (action: SignerRowAction) => setRows((current) => reduceRows(current, action));
  const [locationId, setLocationId] = useState(values.locationId ?? (places.length === 1 ? String(places[0]!.id) : ""));
  const [templateId, setTemplateId] = useState(values.templateId ?? "");
  const [packageMethod, setPackageMethod] = useState(values.signerAuthMethod || DEFAULT_PROOF_METHOD);
  const [files, setFiles] = useState<PickedFile[]>([]);
  const [waitForUploads, setWaitForUploads] = useState(false);
  const [removed, setRemoved] = useState<Set<string>>(() => new Set());

  const organizationId = signing ? undefined : places.find((p) => String(p.id) === locationId)?.organizationId;
  const template = signing ? undefined : templates.find((t) => t.id === templateId);

  function applyTemplate(id: string) {
    setTemplateId(id);
    const chosen = templates.find((t) => t.id === id);
    // The template's method of proof becomes the package's (and its roles' methods the rows').
    if (chosen) setPackageMethod(chosen.signerAuthMethod);
    dispatch({ type: "template", roles: chosen?.roles ?? [] });
  }

  function markRemoved(id: string, remove: boolean) {
    setRemoved((current) => {
      const next = new Set(current);
      if (remove) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    // Before hydration the browser posts the form itself (files from the input, the small-file path);
    // afterwards each file went straight to storage and the form posts the verified uploads' ids.
    if (!hydrated) return;
    event.preventDefault();
    if (files.some((f) => f.status === "uploading")) {
      setWaitForUploads(true);
      return;
    }
    setWaitForUploads(false);
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const formData = new FormData(event.currentTarget, submitter);
    // The bytes are already in storage: the form names the verified uploads, in the order of their mode selects.
    formData.delete("files");
    for (const f of files) if (f.status === "ok" && f.uploadId) formData.append("uploadIds", f.uploadId);
    startTransition(() => formAction(formData));
  }

  const documentCount =
    documents.filter((d) => !removed.has(d.id)).length + (template?.documentNames.length ?? 0) + files.filter((f) => f.status !== "error").length;

  return (
    <form id="signing-form" action={formAction} onSubmit={onSubmit} className="space-y-8" noValidate>
      {signing ? (
        <>
          <input type="hidden" name="signingId" value={signing.id} />
          <input type="hidden" name="locationId" value={signing.locationId} />
        </>
      ) : null}
      <FormMessage state={state.status === "idle" && savedMessage ? { status: "ok", message: savedMessage } : state} id="signing-form-message" />

      <WhereSection locationLabel={signing?.locationLabel} places={places} locationId={locationId} onLocationChange={setLocationId} error={fieldErrors.locationId} />
      <WhatSection
        draft={signing}
        values={values}
        fieldErrors={fieldErrors}
        templates={templates.filter((t) => organizationId === undefined || t.organizationId === organizationId)}
        templateId={templateId}
        onTemplateChange={applyTemplate}
        flows={flows.filter((f) => organizationId === undefined || f.organizationId === organizationId)}
        hydrated={hydrated}
      />
      <SignersSection
        rows={rows}
        dispatch={dispatch}
        fieldErrors={fieldErrors}
        hydrated={hydrated}
        packageMethod={packageMethod}
        packageMethodSelect={<SignerProofSelect value={packageMethod} onChange={setPackageMethod} error={fieldErrors.signerAuthMethod} />}
      />
      <DocumentsSection
        templateDocuments={template?.documents ?? []}
        documents={documents}
        removed={removed}
        onRemovedChange={markRemoved}
        files={files}
        onFilesChange={setFiles}
        hydrated={hydrated}
        values={values}
        fieldErrors={fieldErrors}
      />
      {waitForUploads && files.some((f) => f.status === "uploading") ? (
        <p role="alert" className="text-sm font-medium text-red-800">
          Some PDFs are still uploading. Save again once each one says Ready (or remove it).
        </p>
      ) : null}
      <ClosingSection values={values} fieldErrors={fieldErrors} />

      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6">
        <button type="submit" name="intent" value="save" disabled={pending} className={buttonClass("secondary")}>
          {pending ? "Saving…" : "Save draft"}
        </button>
        <SendCheck filled={rows.filter((row) => !isBlankRow(row))} documentCount={documentCount} pending={pending} />
      </div>
    </form>
  );
}
