import { z } from "zod";
import type { Db } from "@/db/client";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { fetchApi, tokenFor, type ApiResponse } from "./api";
import { createUser, loadDemoWorld } from "./fixtures";

// Shared by the tests/http/manager-*.test.ts files: the demo world plus narrower managers, a
// token-caching caller that also sends binary bodies, and strict response schemas.

export const BASE = "/v1/signing/manager";

/** Demo data plus a location-level (Austin) and a company-level manager of the demo organization. */
export async function loadManagerWorld(db: Db) {
  const world = await loadDemoWorld(db);
  await createUser(db, "branch@demo.local", [
    { role: "manager", organizationId: world.austin.organizationId, companyId: world.austin.companyId, locationId: world.austin.id },
  ]);
  await createUser(db, "company@demo.local", [
    { role: "manager", organizationId: world.austin.organizationId, companyId: world.austin.companyId },
  ]);
  return world;
}

const tokens = new Map<string, string>();

/** Calls the core-api handler in-process as `email` (or anonymously with `null`). */
export async function as(
  email: string | null,
  path: string,
  options: { method?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers = new Headers(options.headers);
  if (email) {
    if (!tokens.has(email)) tokens.set(email, await tokenFor(email, 3600));
    headers.set("authorization", `Bearer ${tokens.get(email)}`);
  }
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const response = await fetchApi(
    new Request(`http://core-api.test${path}`, { method: options.method ?? (body !== undefined ? "POST" : "GET"), headers, body }),
  );
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

let cachedPdf: Uint8Array | undefined;
export async function samplePdf(): Promise<Uint8Array> {
  cachedPdf ??= await renderAgreementPdf({ title: "Test agreement", parties: ["Buyer"], pages: 2 });
  return cachedPdf;
}

export async function uploadPdf(email: string, signingId: string, name = "Contract.pdf"): Promise<ApiResponse> {
  return as(email, `${BASE}/signings/${signingId}/documents?name=${encodeURIComponent(name)}`, {
    method: "POST",
    body: (await samplePdf()) as Uint8Array<ArrayBuffer>,
    headers: { "content-type": "application/pdf" },
  });
}

const iso = z.iso.datetime();

export const SigningJson = z.strictObject({
  id: z.uuid(),
  organizationId: z.number().int(),
  companyId: z.number().int(),
  locationId: z.number().int(),
  title: z.string(),
  status: z.enum(["draft", "sent", "in_progress", "completed", "cancelled", "declined", "expired"]),
  templateId: z.uuid().nullable(),
  flowId: z.uuid().nullable(),
  message: z.string().nullable(),
  signerAuthMethod: z.enum(["link", "email_code", "access_code", "sms_code", "account"]),
  createdByUserId: z.uuid().nullable(),
  sentAt: iso.nullable(),
  completedAt: iso.nullable(),
  cancelledAt: iso.nullable(),
  cancelReason: z.string().nullable(),
  declinedAt: iso.nullable(),
  expiresAt: iso.nullable(),
  createdAt: iso,
  updatedAt: iso,
});

export const SignerJson = z.strictObject({
  id: z.uuid(),
  signingId: z.uuid(),
  userId: z.uuid().nullable(),
  name: z.string(),
  email: z.string(),
  role: z.enum(["signer", "co_signer"]),
  routingOrder: z.number().int(),
  status: z.enum(["pending", "notified", "viewed", "signed", "declined"]),
  notifiedAt: iso.nullable(),
  viewedAt: iso.nullable(),
  signedAt: iso.nullable(),
  declinedAt: iso.nullable(),
  declineReason: z.string().nullable(),
  // Proof of identity: the access code itself is never part of a response.
  authMethod: z.enum(["link", "email_code", "access_code", "sms_code", "account"]).nullable(),
  hasAccessCode: z.boolean(),
  phone: z.string().nullable(),
  // The manager's attestation that the signer agreed to texts at `phone`.
  smsConsentAt: iso.nullable(),
  smsConsentByUserId: z.uuid().nullable(),
  authPassedAt: iso.nullable(),
  authPassedMethod: z.enum(["link", "email_code", "access_code", "sms_code", "account"]).nullable(),
  authFailures: z.number().int(),
  consentedAt: iso.nullable(),
  // The signer's language (null: the organization's default).
  language: z.enum(["en", "es"]).nullable(),
  createdAt: iso,
  updatedAt: iso,
});

export const DocumentJson = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  contentType: z.literal("application/pdf"),
  sizeBytes: z.number().int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  pageCount: z.number().int().positive(),
  position: z.number().int().min(0),
  createdAt: iso,
});

export const SigningDetailJson = SigningJson.extend({
  signers: z.array(SignerJson.extend({ authLockedUntil: iso.nullable() }).strict()),
  documents: z.array(DocumentJson),
}).strict();

/** Creates a draft at a location and returns its id. */
export async function createDraft(email: string, body: Record<string, unknown>): Promise<string> {
  const res = await as(email, `${BASE}/signings`, { method: "POST", json: body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
  return SigningJson.parse(res.body).id;
}

/** A draft with one signer and one document, ready to send. */
export async function createReadyDraft(email: string, locationId: number, signerEmail = "signer@demo.local"): Promise<string> {
  const id = await createDraft(email, { locationId, signers: [{ name: "Sam Signer", email: signerEmail }] });
  const upload = await uploadPdf(email, id);
  if (upload.status !== 201) throw new Error(`upload failed: ${upload.status} ${upload.text}`);
  return id;
}

/**
 * Who may list (first status) and change (second status) a package's signers or documents, by the
 * package's location: signers have no manager role (403), managers outside the scope get 404, the
 * admin reads everywhere but writes nowhere.
 */
export const PACKAGE_CHILD_ROLE_MATRIX: [email: string, location: "austin" | "dallas" | "tulsa", list: number, change: number][] = [
  ["signer@demo.local", "austin", 403, 403],
  ["cosigner@demo.local", "austin", 403, 403],
  ["manager@demo.local", "austin", 200, 201],
  ["branch@demo.local", "austin", 200, 201],
  ["branch@demo.local", "dallas", 404, 404],
  ["manager@other.local", "austin", 404, 404],
  ["owner@demo.local", "dallas", 200, 201],
  ["admin@demo.local", "tulsa", 200, 403],
];
