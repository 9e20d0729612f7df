/**
 * A file's direct upload from the browser, the flow of `POST /v1/uploads`: declare it (name, size,
 * type, SHA-256), PUT its bytes straight to storage (the bucket's presigned URL, or the app's own
 * endpoint on the embedded default) with progress, then have the server check what arrived (a
 * readable, unencrypted PDF within the size and page limits, the same rules and messages as /v1).
 * The form that started it attaches the verified upload by id; no file passes through its request.
 * The two server steps are the caller's server actions (the web layer owns them).
 */

export type UploadTarget = { url: string; headers: Record<string, string> };

export type DirectUploadSteps = {
  start: (declared: { name: string; size: number; contentType: string; sha256: string }) => Promise<{ ok: true; id: string; put: UploadTarget } | { ok: false; error: string }>;
  complete: (uploadId: string) => Promise<{ ok: true; pageCount: number } | { ok: false; error: string }>;
};

export type DirectUploadOutcome = { ok: true; uploadId: string; pageCount: number } | { ok: false; error: string };

const TYPE_BY_EXTENSION: Record<string, string> = { pdf: "application/pdf", png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg" };

/** The media type a picked file is declared as: the browser's, else from its extension (the server checks the bytes either way). */
export function declaredType(file: File): string {
  if (file.type) return file.type;
  return TYPE_BY_EXTENSION[file.name.split(".").pop()?.toLowerCase() ?? ""] ?? "application/octet-stream";
}

async function sha256Hex(file: File): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** PUTs the bytes where the upload says, reporting progress; resolves with an error message, or undefined when stored. */
function putBytes(file: File, put: UploadTarget, onProgress: (fraction: number) => void): Promise<string | undefined> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("PUT", put.url);
    for (const [name, value] of Object.entries(put.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(undefined);
      let message: string | undefined;
      try {
        message = (JSON.parse(xhr.responseText) as { error?: string }).error;
      } catch {
        message = undefined;
      }
      resolve(message ?? `The upload was refused (HTTP ${xhr.status}). Try again.`);
    };
    xhr.onerror = () => resolve("The upload did not reach storage. Check your connection and try again.");
    xhr.send(file);
  });
}

/** One PDF's direct upload, declared as `application/pdf` (the server's check names what is wrong with a file that is not one). */
export function uploadPdf(file: File, onProgress: (fraction: number) => void, steps: DirectUploadSteps): Promise<DirectUploadOutcome> {
  return uploadFile(file, "application/pdf", onProgress, steps);
}

/** One file's direct upload, declared as `contentType` (a PDF, PNG or JPEG; the server checks the bytes). */
export async function uploadFile(file: File, contentType: string, onProgress: (fraction: number) => void, steps: DirectUploadSteps): Promise<DirectUploadOutcome> {
  try {
    const sha256 = await sha256Hex(file);
    const started = await steps.start({ name: file.name || "file", size: file.size, contentType, sha256 });
    if (!started.ok) return started;
    const failed = await putBytes(file, started.put, onProgress);
    if (failed) return { ok: false, error: failed };
    const verified = await steps.complete(started.id);
    return verified.ok ? { ok: true, uploadId: started.id, pageCount: verified.pageCount } : verified;
  } catch {
    return { ok: false, error: "The upload could not be started. Check your connection and try again." };
  }
}
