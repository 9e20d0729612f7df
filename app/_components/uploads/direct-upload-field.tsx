"use client";

import { useEffect, useId, useRef, useState } from "react";
import { declaredType, uploadFile, type DirectUploadSteps } from "@/components/uploads/direct-upload";
import { UPLOAD_PROGRESS_LABELS, UploadProgress, type UploadProgressLabels } from "@/components/uploads/upload-progress";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { useHydrated } from "@/components/ui/use-hydrated";

type Item =
  | { key: number; file: File; status: "uploading"; progress: number }
  | { key: number; file: File; status: "ok"; uploadId: string; pageCount: number }
  | { key: number; file: File; status: "error"; error: string; retry: boolean };

/** The field's words: English by default (the manager's console); a borrower's form passes its catalog's. */
export type DirectUploadFieldLabels = UploadProgressLabels & {
  /** The list of chosen files (its accessible name). */
  files: string;
  /** The browser's message when the form is submitted while a file is uploading. */
  wait: string;
  notUploaded: (error: string) => string;
  retry: string;
  retryFile: (fileName: string) => string;
  /** A file over `maxBytes`, refused in the browser before anything is sent. */
  tooLarge: (fileName: string) => string;
};

export const DIRECT_UPLOAD_FIELD_LABELS: DirectUploadFieldLabels = {
  ...UPLOAD_PROGRESS_LABELS,
  files: "Files",
  wait: "Wait until the files have uploaded: the form is sent as soon as they have.",
  notUploaded: (error) => `Not uploaded: ${error}`,
  retry: "Retry",
  retryFile: (fileName) => `Retry ${fileName}`,
  tooLarge: (fileName) => `${fileName} is too large.`,
};

/** One file input of the field: several let a phone offer its camera and its files as two clear choices. */
export type DirectUploadInput = { id: string; label: string; accept: string; capture?: "environment" | "user" };

/**
 * A file field of a form that posts to a server action, uploading straight to storage once hydrated:
 * each chosen file goes through the direct-upload flow (`POST /v1/uploads`'s steps, as the caller's
 * server actions: `steps`) with its own progress bar, and a failed one has its own Retry, which leaves
 * the others as they are. When every file is in storage the form posts only their upload ids
 * (`idsName`, repeated), so no file passes through the request and a host's body limit does not apply.
 * Before hydration the field is plain file inputs named `name` (the small-file path, its own limits),
 * and so it stays while a file is not in storage: a form sent after a failed upload (not retried)
 * posts the files themselves, and the server's answer says what is wrong with them. A file over
 * `maxBytes` is refused here, before anything is sent, and taken out of the input. Submitting while a
 * file is uploading is held by the browser with a message, and the form is sent once the uploads
 * settle. With several `inputs` (a camera and a file picker), choosing in one clears the others.
 */
export function DirectUploadField({
  inputs,
  name,
  idsName = "uploadId",
  hint,
  multiple = false,
  required = false,
  error,
  steps,
  maxBytes,
  labels = DIRECT_UPLOAD_FIELD_LABELS,
  inputClassName,
}: {
  inputs: readonly DirectUploadInput[];
  name: string;
  idsName?: string;
  hint?: string;
  multiple?: boolean;
  required?: boolean;
  error?: string;
  steps: DirectUploadSteps;
  maxBytes?: number;
  labels?: DirectUploadFieldLabels;
  inputClassName?: string;
}) {
  const hydrated = useHydrated();
  const [items, setItems] = useState<Item[]>([]);
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const next = useRef(0);
  const hintId = useId();
  const uploading = items.some((i) => i.status === "uploading");
  const allStored = items.length > 0 && items.every((i) => i.status === "ok");
  const fields = () => refs.current.filter((field): field is HTMLInputElement => field !== null);

  // A submit tried while uploading (the browser refused it: the field is invalid meanwhile) goes out once the uploads settle.
  const submitWhenSettled = useRef(false);
  useEffect(() => {
    const all = fields();
    for (const field of all) field.setCustomValidity(uploading ? labels.wait : "");
    if (!uploading && submitWhenSettled.current) {
      submitWhenSettled.current = false;
      all[0]?.form?.requestSubmit();
    }
  }, [uploading, items, labels.wait]);
  useEffect(() => {
    const all = fields();
    const onInvalid = (event: Event) => {
      if ((event.currentTarget as HTMLInputElement).validationMessage === labels.wait) submitWhenSettled.current = true;
    };
    for (const field of all) field.addEventListener("invalid", onInvalid);
    return () => {
      for (const field of all) field.removeEventListener("invalid", onInvalid);
    };
  }, [labels.wait]);

  // The form was reset (after a successful post): the field starts over.
  useEffect(() => {
    const form = fields()[0]?.form;
    if (!form) return;
    const onReset = () => setItems([]);
    form.addEventListener("reset", onReset);
    return () => form.removeEventListener("reset", onReset);
  }, []);

  function upload(key: number, file: File) {
    const update = (change: (item: Item) => Item) => setItems((current) => current.map((item) => (item.key === key ? change(item) : item)));
    update(() => ({ key, file, status: "uploading", progress: 0 }));
    void uploadFile(file, declaredType(file), (progress) => update((item) => (item.status === "uploading" ? { ...item, progress } : item)), steps).then((result) =>
      update(() => (result.ok ? { key, file, status: "ok", uploadId: result.uploadId, pageCount: result.pageCount } : { key, file, status: "error", error: result.error, retry: true })),
    );
  }

  function choose(from: number, files: File[]) {
    const all = refs.current;
    // The other inputs' choices are dropped: what is posted is this one's.
    all.forEach((field, i) => {
      if (field && i !== from) field.value = "";
    });
    const tooLarge = maxBytes !== undefined && files.some((file) => file.size > maxBytes);
    // A file too large is never sent (nor posted with the form): the input is emptied and the reason shown.
    if (tooLarge) all[from]!.value = "";
    const chosen: Item[] = files.map((file) =>
      tooLarge
        ? { key: next.current++, file, status: "error", error: file.size > maxBytes! ? labels.tooLarge(file.name) : "", retry: false }
        : { key: next.current++, file, status: "uploading", progress: 0 },
    );
    setItems(chosen.filter((item) => item.status !== "error" || item.error));
    if (!tooLarge) for (const item of chosen) upload(item.key, item.file);
  }

  const errorId = `${inputs[0]?.id ?? hintId}-error`;
  const describedBy = [hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="space-y-2">
      {inputs.map((input, i) => (
        <div key={input.id} className="space-y-1">
          <Label htmlFor={input.id}>{input.label}</Label>
          <Input
            ref={(field) => {
              refs.current[i] = field;
            }}
            id={input.id}
            // Once every file is in storage, only the upload ids are posted.
            name={allStored ? undefined : name}
            type="file"
            multiple={multiple}
            required={required && !allStored}
            accept={input.accept}
            capture={input.capture}
            className={inputClassName}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            onChange={hydrated ? (event) => choose(i, [...(event.currentTarget.files ?? [])]) : undefined}
          />
        </div>
      ))}
      {hint ? (
        <p id={hintId} className="text-xs text-slate-700">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul className="space-y-1 text-sm" aria-label={labels.files}>
          {items.map((item) => (
            <li key={item.key} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="min-w-0 break-all font-medium text-slate-900 sm:min-w-48">{item.file.name}</span>
              {item.status === "error" ? (
                <>
                  <span role="alert" className="text-red-800">
                    {item.retry ? labels.notUploaded(item.error) : item.error}
                  </span>
                  {item.retry ? (
                    <Button variant="secondary" className="px-2 py-1" aria-label={labels.retryFile(item.file.name)} onClick={() => upload(item.key, item.file)}>
                      {labels.retry}
                    </Button>
                  ) : null}
                </>
              ) : item.status === "uploading" ? (
                <UploadProgress fileName={item.file.name} status="uploading" progress={item.progress} labels={labels} />
              ) : (
                <>
                  <UploadProgress fileName={item.file.name} status="ok" progress={1} pageCount={item.pageCount} labels={labels} />
                  {allStored ? <input type="hidden" name={idsName} value={item.uploadId} /> : null}
                </>
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
