import { fetchApi, type ApiResponse } from "./api";

/** POSTs a multipart/form-data body (a `file` part) to the in-process core-api handler. */
export async function uploadFile(
  path: string,
  options: { token?: string; bytes: Uint8Array; fileName?: string; contentType?: string; field?: string },
): Promise<ApiResponse> {
  const form = new FormData();
  form.set(
    options.field ?? "file",
    new File([options.bytes as Uint8Array<ArrayBuffer>], options.fileName ?? "upload.bin", { type: options.contentType ?? "application/octet-stream" }),
  );
  const headers = new Headers();
  if (options.token !== undefined) headers.set("authorization", `Bearer ${options.token}`);
  const response = await fetchApi(new Request(`http://core-api.test${path}`, { method: "POST", headers, body: form }));
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Downloads raw bytes from the in-process handler. */
export async function download(path: string, token: string): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const response = await fetchApi(new Request(`http://core-api.test${path}`, { headers: { authorization: `Bearer ${token}` } }));
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

export const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
export const JPEG_BYTES = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);
export const PDF_BYTES = new TextEncoder().encode("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");
