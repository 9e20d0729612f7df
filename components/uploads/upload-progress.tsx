/**
 * Where one direct upload stands, for the forms that upload a PDF straight to storage: a progress bar
 * while the bytes go, then "Checking…" while the server checks the file, then its page count. A
 * refused upload is the form's own message (with its Retry), not this.
 */
export function UploadProgress({ fileName, status, progress, pageCount }: { fileName: string; status: "uploading" | "ok"; progress: number; pageCount?: number }) {
  return (
    <>
      {status === "uploading" ? <progress value={progress} max={1} aria-label={`Uploading ${fileName}`} className="h-2 w-32" /> : null}
      <span role="status" className="text-slate-700">
        {status === "uploading" ? (progress < 1 ? `Uploading… ${Math.round(progress * 100)}%` : "Checking…") : pageCount ? `Ready: ${pageCount} ${pageCount === 1 ? "page" : "pages"}` : "Ready"}
      </span>
    </>
  );
}
