import type { ComponentProps } from "react";
import { executionModeLabel } from "@/lib/closings/execution-mode-options";
import { DocumentPicker, type PickedFile } from "./document-picker";
import { ExecutionModeSelect } from "./execution-mode-select";
import { FormSection } from "./form-section";
import type { ExistingDocument, TemplateOption } from "./types";

/**
 * Step 4: the template's documents, the draft's attached ones (each removable) and new uploads, each
 * with how it is signed (hybrid closings: e-signed now, in ink or before a notary at the table, or only to read).
 */
export function DocumentsSection({
  templateDocuments,
  documents,
  removed,
  onRemovedChange,
  files,
  onFilesChange,
  hydrated,
  values,
  fieldErrors,
}: {
  /** A new package's template documents (their mode defaults to the template's). */
  templateDocuments: TemplateOption["documents"];
  documents: ExistingDocument[];
  /** Ids of attached documents marked for removal. */
  removed: Set<string>;
  onRemovedChange: (id: string, remove: boolean) => void;
  files: PickedFile[];
  onFilesChange: ComponentProps<typeof DocumentPicker>["onChange"];
  hydrated: boolean;
  /** What was posted last (kept on an error). */
  values: Record<string, string>;
  fieldErrors: Record<string, string>;
}) {
  const modeError = (prefix: string) => Object.entries(fieldErrors).find(([key]) => key.startsWith(prefix))?.[1];
  return (
    <FormSection id="documents-heading" title="Documents" step={4}>
      <p className="text-sm text-slate-700">
        For each document, choose how it is signed: e-signed now, signed in ink (or before a notary) at the closing table from the table packet, or
        only read (the borrower confirms receipt).
      </p>
      {templateDocuments.length > 0 ? (
        <div className="space-y-2">
          <h3 className="text-sm font-medium text-slate-900">From the template, first</h3>
          <ul aria-label="Template documents" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
            {templateDocuments.map((d) => (
              <li key={d.id} className="flex flex-wrap items-end gap-3 px-4 py-3 text-sm">
                <span className="min-w-0 flex-1 break-all self-center font-medium text-slate-900">{d.name}</span>
                <ExecutionModeSelect
                  id={`template-mode-${d.id}`}
                  name={`templateDocumentMode.${d.id}`}
                  documentName={d.name}
                  defaultValue={values[`templateDocumentMode.${d.id}`] ?? d.executionMode}
                  error={fieldErrors[`templateDocumentModes.${d.id}`]}
                />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {documents.length > 0 ? (
        <ul aria-label="Attached documents" className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {documents.map((d) => (
            <li key={d.id} className="flex flex-wrap items-end gap-3 px-4 py-3 text-sm">
              <span className={`min-w-0 flex-1 self-center break-all font-medium ${removed.has(d.id) ? "text-slate-500 line-through" : "text-slate-900"}`}>
                {d.name}
                <span className="block font-normal text-slate-700">
                  {d.pageCount} {d.pageCount === 1 ? "page" : "pages"} · now: {executionModeLabel(d.executionMode)}
                </span>
              </span>
              <ExecutionModeSelect
                id={`document-mode-${d.id}`}
                name={`documentMode.${d.id}`}
                documentName={d.name}
                defaultValue={values[`documentMode.${d.id}`] ?? d.executionMode}
                error={fieldErrors[`documentModes.${d.id}`]}
              />
              <input type="hidden" name="transferableShown" value={d.id} />
              <label className="inline-flex items-center gap-2 self-center text-slate-900">
                <input type="checkbox" name="transferableDocument" value={d.id} defaultChecked={d.transferable} className="h-4 w-4" />
                Transferable record <span className="sr-only">{d.name}</span>
              </label>
              <label className="inline-flex items-center gap-2 self-center text-slate-900">
                <input
                  type="checkbox"
                  name="removeDocument"
                  value={d.id}
                  className="h-4 w-4"
                  onChange={(event) => onRemovedChange(d.id, event.currentTarget.checked)}
                />
                Remove <span className="sr-only">{d.name}</span> when saving
              </label>
            </li>
          ))}
        </ul>
      ) : null}
      <DocumentPicker
        files={files}
        onChange={onFilesChange}
        hydrated={hydrated}
        error={fieldErrors.files}
        fileModes={values.fileModes}
        fileModesError={modeError("fileModes")}
      />
    </FormSection>
  );
}
