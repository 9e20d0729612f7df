import type { ComponentProps } from "react";
import { DocumentPicker, type PickedFile } from "./document-picker";
import { FormSection } from "./form-section";
import type { ExistingDocument } from "./types";

/** Step 4: the template's documents, the draft's attached ones (each removable) and new uploads. */
export function DocumentsSection({
  templateDocumentNames,
  documents,
  removed,
  onRemovedChange,
  files,
  onFilesChange,
  hydrated,
  error,
}: {
  templateDocumentNames: string[];
  documents: ExistingDocument[];
  /** Ids of attached documents marked for removal. */
  removed: Set<string>;
  onRemovedChange: (id: string, remove: boolean) => void;
  files: PickedFile[];
  onFilesChange: ComponentProps<typeof DocumentPicker>["onChange"];
  hydrated: boolean;
  error?: string;
}) {
  return (
    <FormSection id="documents-heading" title="Documents" step={4}>
      {templateDocumentNames.length > 0 ? <p className="text-sm text-slate-800">From the template, first: {templateDocumentNames.join(", ")}.</p> : null}
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
                  onChange={(event) => onRemovedChange(d.id, event.currentTarget.checked)}
                />
                Remove <span className="sr-only">{d.name}</span> when saving
              </label>
            </li>
          ))}
        </ul>
      ) : null}
      <DocumentPicker files={files} onChange={onFilesChange} hydrated={hydrated} error={error} />
    </FormSection>
  );
}
