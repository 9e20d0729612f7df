"use client";

import { useRef, useState, type DragEvent } from "react";
import { Button } from "@/components/ui/button";
import { ExecutionModeSelect } from "./execution-mode-select";
import { uploadPdf as uploadPdfWith } from "@/components/uploads/direct-upload";
import { UploadProgress } from "@/components/uploads/upload-progress";
import { completeDocumentUpload, startDocumentUpload } from "../../_shared/uploads/upload-actions";

const uploadPdf = (file: File, onProgress: (fraction: number) => void) => uploadPdfWith(file, onProgress, { start: startDocumentUpload, complete: completeDocumentUpload });

export type PickedFile = {
  key: number;
  file: File;
  status: "uploading" | "ok" | "error";
  /** Fraction of the bytes sent to storage, 0–1. */
  progress: number;
  /** The direct upload the form attaches on save (set once the server has verified it). */
  uploadId?: string;
  pageCount?: number;
  error?: string;
};

const sizeFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
export const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${sizeFormat.format(bytes / 1024 / 1024)} MiB` : `${sizeFormat.format(Math.max(1, bytes / 1024))} KiB`;

let nextKey = 1;

/**
 * The documents drop zone: a native file input (posted with the form before hydration), enhanced
 * with drag and drop and a per-file check with progress and the API's error inline.
 */
export function DocumentPicker({
  files,
  onChange,
  hydrated,
  error,
  fileModes,
  fileModesError,
}: {
  files: PickedFile[];
  onChange: (update: (files: PickedFile[]) => PickedFile[]) => void;
  hydrated: boolean;
  error?: string;
  /** The modes posted last time (kept on an error): before hydration the one choice for every file. */
  fileModes?: string;
  fileModesError?: string;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  function upload(item: PickedFile) {
    const update = (change: Partial<PickedFile>) => onChange((current) => current.map((f) => (f.key === item.key ? { ...f, ...change } : f)));
    update({ status: "uploading", progress: 0, error: undefined });
    void uploadPdf(item.file, (progress) => update({ progress })).then((result) =>
      update(result.ok ? { status: "ok", progress: 1, uploadId: result.uploadId, pageCount: result.pageCount } : { status: "error", progress: 1, error: result.error }),
    );
  }

  function add(list: FileList | null) {
    if (!list || list.length === 0) return;
    const picked: PickedFile[] = [...list].map((file) => ({ key: nextKey++, file, status: "uploading", progress: 0 }));
    onChange((current) => [...current, ...picked]);
    if (inputRef.current) inputRef.current.value = "";
    for (const item of picked) upload(item);
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    add(event.dataTransfer.files);
  }

  return (
    <div className="space-y-3">
      <div
        data-testid="drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`rounded-lg border-2 border-dashed p-6 text-center ${dragging ? "border-blue-700 bg-blue-50" : "border-slate-400 bg-slate-50"}`}
      >
        <label htmlFor="signing-files" className="block text-sm font-medium text-slate-900">
          Add PDFs
        </label>
        <p id="signing-files-hint" className="mt-1 text-sm text-slate-700">
          {hydrated
            ? "Drop PDF files here, or choose them. Each PDF up to 100 MiB and 500 pages; each uploads now and is attached when you save."
            : "Each PDF up to 10 MiB and 500 pages; they are attached when you save."}
        </p>
        <input
          ref={inputRef}
          id="signing-files"
          name="files"
          type="file"
          accept="application/pdf,.pdf"
          multiple
          aria-describedby={error ? "signing-files-hint signing-files-error" : "signing-files-hint"}
          aria-invalid={error ? true : undefined}
          onChange={hydrated ? (event) => add(event.currentTarget.files) : undefined}
          className="mx-auto mt-3 block max-w-full text-sm text-slate-900 file:mr-3 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-semibold"
        />
        {error ? (
          <p id="signing-files-error" className="mt-2 text-sm text-red-800">
            {error}
          </p>
        ) : null}
        {hydrated ? null : (
          // Before hydration the chosen files are not listed: one choice applies to all of them.
          <div className="mx-auto mt-3 max-w-xs text-left">
            <ExecutionModeSelect id="signing-files-mode" name="fileModes" documentName="" label="How the added PDFs are signed" defaultValue={fileModes} error={fileModesError} />
          </div>
        )}
      </div>
      {files.length > 0 ? (
        <ul aria-label="PDFs to attach" className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {files.map((f) => (
            <li key={f.key} className="space-y-1 px-4 py-3 text-sm">
              <div className="flex flex-wrap items-center gap-3">
                <span className="min-w-48 flex-1 break-all font-medium text-slate-900">{f.file.name}</span>
                <span className="text-slate-700">{formatSize(f.file.size)}</span>
                {f.status === "error" ? null : <UploadProgress fileName={f.file.name} status={f.status} progress={f.progress} pageCount={f.pageCount} />}
                {f.status === "error" ? (
                  <Button variant="secondary" className="px-2 py-1" aria-label={`Retry ${f.file.name}`} onClick={() => upload(f)}>
                    Retry
                  </Button>
                ) : null}
                <Button variant="ghost" className="px-2 py-1" aria-label={`Remove ${f.file.name}`} onClick={() => onChange((current) => current.filter((x) => x.key !== f.key))}>
                  Remove
                </Button>
              </div>
              {f.status === "error" ? (
                <p role="alert" className="font-medium text-red-800">
                  Not attached: {f.error}
                </p>
              ) : (
                // Posted in the order of the files (the form appends them in this order).
                <ExecutionModeSelect id={`file-mode-${f.key}`} name="fileModes" documentName={f.file.name} error={fileModesError} />
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
