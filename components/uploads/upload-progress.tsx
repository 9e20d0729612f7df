/** The words of an upload's progress: English by default (the manager's console); a borrower's form passes its catalog's. */
export type UploadProgressLabels = {
  uploadingFile: (fileName: string) => string;
  uploading: (percent: number) => string;
  checking: string;
  ready: string;
  readyPages: (pages: number) => string;
};

export const UPLOAD_PROGRESS_LABELS: UploadProgressLabels = {
  uploadingFile: (fileName) => `Uploading ${fileName}`,
  uploading: (percent) => `Uploading… ${percent}%`,
  checking: "Checking…",
  ready: "Ready",
  readyPages: (pages) => `Ready: ${pages} ${pages === 1 ? "page" : "pages"}`,
};

/**
 * Where one direct upload stands, for the forms that upload a file straight to storage: a progress bar
 * while the bytes go, then "Checking…" while the server checks the file, then its page count. A
 * refused upload is the form's own message (with its Retry), not this.
 */
export function UploadProgress({
  fileName,
  status,
  progress,
  pageCount,
  labels = UPLOAD_PROGRESS_LABELS,
}: {
  fileName: string;
  status: "uploading" | "ok";
  progress: number;
  pageCount?: number;
  labels?: UploadProgressLabels;
}) {
  return (
    <>
      {status === "uploading" ? <progress value={progress} max={1} aria-label={labels.uploadingFile(fileName)} className="h-2 w-32" /> : null}
      <span role="status" className="text-slate-700">
        {status === "uploading" ? (progress < 1 ? labels.uploading(Math.round(progress * 100)) : labels.checking) : pageCount ? labels.readyPages(pageCount) : labels.ready}
      </span>
    </>
  );
}
