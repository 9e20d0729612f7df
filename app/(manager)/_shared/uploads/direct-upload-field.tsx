"use client";

import { useEffect, useId, useRef, useState } from "react";
import { declaredType, uploadFile } from "@/components/uploads/direct-upload";
import { UploadProgress } from "@/components/uploads/upload-progress";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { useHydrated } from "@/components/ui/use-hydrated";
import { completeDocumentUpload, startDocumentUpload } from "./upload-actions";

type Item =
  | { key: number; file: File; status: "uploading"; progress: number }
  | { key: number; file: File; status: "ok"; uploadId: string; pageCount: number }
  | { key: number; file: File; status: "error"; error: string };

const WAIT = "Wait until the files have uploaded.";
const FAILED = "A file was not uploaded: retry it, or choose the files again.";

/**
 * A file field of a form that posts to a server action, uploading straight to storage once hydrated:
 * each chosen file goes through the direct-upload flow (`POST /v1/uploads`'s steps, as the manager's
 * server actions) with its own progress bar, and a failed one has its own Retry, which leaves the
 * others as they are. When every file is in storage the form posts only their upload ids (`idsName`,
 * repeated), so no file passes through the request and a host's body limit does not apply. Before
 * hydration the field is a plain file input named `name` (the small-file path, its own limits).
 * Submitting while a file is uploading, or after one failed, is stopped by the browser with a message.
 */
export function DirectUploadField({
  id,
  name,
  idsName = "uploadId",
  label,
  hint,
  accept,
  multiple = false,
  required = false,
  error,
}: {
  id: string;
  name: string;
  idsName?: string;
  label: string;
  hint?: string;
  accept: string;
  multiple?: boolean;
  required?: boolean;
  error?: string;
}) {
  const hydrated = useHydrated();
  const [items, setItems] = useState<Item[]>([]);
  const input = useRef<HTMLInputElement>(null);
  const next = useRef(0);
  const hintId = useId();
  const uploading = items.some((i) => i.status === "uploading");
  const failed = items.some((i) => i.status === "error");
  const allStored = items.length > 0 && items.every((i) => i.status === "ok");

  useEffect(() => {
    input.current?.setCustomValidity(uploading ? WAIT : failed ? FAILED : "");
  }, [uploading, failed]);

  // The form was reset (after a successful post): the field starts over.
  useEffect(() => {
    const form = input.current?.form;
    if (!form) return;
    const onReset = () => setItems([]);
    form.addEventListener("reset", onReset);
    return () => form.removeEventListener("reset", onReset);
  }, []);

  function upload(key: number, file: File) {
    const update = (change: (item: Item) => Item) => setItems((current) => current.map((item) => (item.key === key ? change(item) : item)));
    update(() => ({ key, file, status: "uploading", progress: 0 }));
    void uploadFile(file, declaredType(file), (progress) => update((item) => (item.status === "uploading" ? { ...item, progress } : item)), {
      start: startDocumentUpload,
      complete: completeDocumentUpload,
    }).then((result) => update(() => (result.ok ? { key, file, status: "ok", uploadId: result.uploadId, pageCount: result.pageCount } : { key, file, status: "error", error: result.error })));
  }

  function choose(files: File[]) {
    const chosen = files.map((file) => ({ key: next.current++, file, status: "uploading" as const, progress: 0 }));
    setItems(chosen);
    for (const item of chosen) upload(item.key, item.file);
  }

  const errorId = `${id}-error`;
  return (
    <div className="space-y-2">
      <Label htmlFor={id}>{label}</Label>
      <Input
        ref={input}
        id={id}
        // Once every file is in storage, only the upload ids are posted.
        name={allStored ? undefined : name}
        type="file"
        multiple={multiple}
        required={required && !allStored}
        accept={accept}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? hintId : "", error ? errorId : ""].filter(Boolean).join(" ") || undefined}
        onChange={hydrated ? (event) => choose([...(event.currentTarget.files ?? [])]) : undefined}
      />
      {hint ? (
        <p id={hintId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-sm text-red-800">
          {error}
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul className="space-y-1 text-sm" aria-label="Files">
          {items.map((item) => (
            <li key={item.key} className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="min-w-48 break-all font-medium text-slate-900">{item.file.name}</span>
              {item.status === "error" ? (
                <>
                  <span role="alert" className="text-red-800">
                    Not uploaded: {item.error}
                  </span>
                  <Button variant="secondary" className="px-2 py-1" aria-label={`Retry ${item.file.name}`} onClick={() => upload(item.key, item.file)}>
                    Retry
                  </Button>
                </>
              ) : item.status === "uploading" ? (
                <UploadProgress fileName={item.file.name} status="uploading" progress={item.progress} />
              ) : (
                <>
                  <UploadProgress fileName={item.file.name} status="ok" progress={1} pageCount={item.pageCount} />
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
