"use client";

import { useRef, useState, type DragEvent } from "react";
import { Button } from "@/components/ui/button";
import { ExecutionModeSelect } from "./execution-mode-select";

export type PickedFile = {
  key: number;
  file: File;
  status: "checking" | "ok" | "error";
  /** Fraction uploaded for the check, 0–1. */
  progress: number;
  pageCount?: number;
  error?: string;
};

const sizeFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
export const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${sizeFormat.format(bytes / 1024 / 1024)} MiB` : `${sizeFormat.format(Math.max(1, bytes / 1024))} KiB`;

let nextKey = 1;

/**
 * Sends a picked file to the PDF check (the same upload rules and messages as /v1) with upload
 * progress; the form attaches the file itself when it is saved.
 */
function checkPdf(file: File, onProgress: (fraction: number) => void): Promise<{ ok: true; pageCount: number } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    // The name stays out of the URL (file names often carry a borrower's name; URLs end up in logs).
    xhr.open("POST", "/api/documents/check");
    xhr.setRequestHeader("Content-Type", "application/pdf");
    xhr.responseType = "json";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      const body = xhr.response as { pageCount?: number; error?: string } | null;
      if (xhr.status === 200 && body?.pageCount) resolve({ ok: true, pageCount: body.pageCount });
      else resolve({ ok: false, error: body?.error ?? `The check failed (HTTP ${xhr.status}). Try again.` });
    };
    xhr.onerror = () => resolve({ ok: false, error: "The upload did not reach the server. Check your connection and try again." });
    xhr.send(file);
  });
}

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

  function add(list: FileList | null) {
    if (!list || list.length === 0) return;
    const picked: PickedFile[] = [...list].map((file) => ({ key: nextKey++, file, status: "checking", progress: 0 }));
    onChange((current) => [...current, ...picked]);
    if (inputRef.current) inputRef.current.value = "";
    for (const item of picked) {
      void checkPdf(item.file, (progress) => onChange((current) => current.map((f) => (f.key === item.key ? { ...f, progress } : f)))).then((result) =>
        onChange((current) =>
          current.map((f) =>
            f.key !== item.key
              ? f
              : result.ok
                ? { ...f, status: "ok", progress: 1, pageCount: result.pageCount }
                : { ...f, status: "error", progress: 1, error: result.error },
          ),
        ),
      );
    }
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
          {hydrated ? "Drop PDF files here, or choose them. " : ""}Each PDF up to 10 MiB; they are attached when you save.
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
                <span className="min-w-0 flex-1 break-all font-medium text-slate-900">{f.file.name}</span>
                <span className="text-slate-700">{formatSize(f.file.size)}</span>
                {f.status === "checking" ? (
                  <progress value={f.progress} max={1} aria-label={`Uploading ${f.file.name}`} className="h-2 w-32" />
                ) : null}
                {f.status === "error" ? null : (
                  <span role="status" className="text-slate-700">
                    {f.status === "checking" ? `Checking… ${Math.round(f.progress * 100)}%` : `Ready: ${f.pageCount} ${f.pageCount === 1 ? "page" : "pages"}`}
                  </span>
                )}
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
