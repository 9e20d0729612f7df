import { getApiApp } from "@/lib/api/app";
import { issueLocalAccessToken, localSubjectForEmail } from "@/lib/auth/local-tokens";
import { assertDocumentedResponse } from "./openapi-contract";

export type ApiResponse = { status: number; headers: Headers; body: unknown; text: string };

/**
 * The core-api fetch handler, in-process, with every answer checked against the OpenAPI document:
 * an undocumented status or a body that does not match the operation's response schema throws.
 */
export async function fetchApi(request: Request, env?: unknown): Promise<Response> {
  const response = await getApiApp().fetch(request, env);
  await assertDocumentedResponse(request.method, request.url, response);
  return response;
}

/** Calls the core-api fetch handler in-process, exactly as the Node server or Next would. */
export async function callApi(
  path: string,
  options: { method?: string; token?: string; headers?: Record<string, string>; json?: unknown; body?: string } = {},
): Promise<ApiResponse> {
  const headers = new Headers(options.headers);
  if (options.token !== undefined) headers.set("authorization", `Bearer ${options.token}`);
  let body: string | undefined = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await fetchApi(
    new Request(`http://core-api.test${path}`, { method: options.method ?? (body ? "POST" : "GET"), headers, body }),
  );
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export async function tokenFor(email: string, ttlSeconds?: number): Promise<string> {
  return (await issueLocalAccessToken({ subject: localSubjectForEmail(email), ttlSeconds })).token;
}

/** `email` e-signs every document of the package through `/v1` with a typed signature; anything but a 201 throws. */
export async function eSignEveryDocument(pkg: { id: string; documents: { id: string }[] }, email: string, typedName: string): Promise<void> {
  for (const doc of pkg.documents) {
    const res = await callApi(`/v1/signing/signer/signings/${pkg.id}/documents/${doc.id}/esignatures`, {
      method: "POST",
      token: await tokenFor(email),
      json: { kind: "typed", text: typedName, font: "caveat", consent: true },
    });
    if (res.status !== 201) throw new Error(`e-signing document ${doc.id} answered ${res.status}, not 201: ${res.text}`);
  }
}
