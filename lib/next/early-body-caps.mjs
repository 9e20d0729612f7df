// Plain JavaScript (types in early-body-caps.d.mts): the preload `lib/net/install-early-body-guard.mjs`
// reads it before Next starts, and the routes declare the same numbers from here.

/** next-auth's routes and the API-key exchange: a credentials form with its CSRF token is under 1 KiB. */
export const AUTH_ROUTE_MAX_BODY_BYTES = 8 * 1024;

/** `/api/bank/*`: the largest body is `{ "public_token": … }`, under 600 bytes. */
export const BANK_ROUTE_MAX_BODY_BYTES = 4 * 1024;

const MiB = 1024 * 1024;

/**
 * Pages and their server actions. A form without files is a few KiB, and a drawn signature image
 * (200 KiB, base64 in the action's body) the largest thing they post: 1 MiB.
 */
export const PAGE_MAX_BODY_BYTES = 1 * MiB;

/**
 * The pages whose server actions still take files, each with a cap that fits its largest upload
 * (until files go straight to storage and these forms post only their fields):
 * - the package form (new and edit) and a chattel document's files: several PDFs of 10 MiB each in
 *   one post, 32 MiB (also Next's `serverActions.bodySizeLimit`);
 * - a template's document, a scan at the closing (manager's and settlement agent's page), /verify's
 *   sealed PDF: one PDF of at most 10 MiB (11 MiB for /verify) plus the form, 12 MiB;
 * - the bulk send's CSV (1 MiB) and the workspace logo (512 KiB): 2 MiB;
 * - a signer's package page and its done page (also where an embedded signing lands), whose
 *   attachment form posts the file itself before the page has hydrated: one file of at most 20 MiB
 *   (MAX_ATTACHMENT_BYTES) plus the form, 21 MiB. Once hydrated the file goes straight to storage.
 */
export const UPLOAD_PAGE_CAPS = [
  { path: /^\/signings\/(?:new|[^/]+\/edit)\/?$/, maxBytes: 32 * MiB },
  { path: /^\/documents\/[^/]+(?:\/|$)/, maxBytes: 32 * MiB },
  { path: /^\/templates(?:\/|$)/, maxBytes: 12 * MiB },
  { path: /^\/signings\/[^/]+\/closing(?:\/|$)/, maxBytes: 12 * MiB },
  { path: /^\/agent\/closing\/[^/]+(?:\/|$)/, maxBytes: 12 * MiB },
  { path: /^\/verify(?:\/|$)/, maxBytes: 12 * MiB },
  { path: /^\/signings\/bulk\/?$/, maxBytes: 2 * MiB },
  { path: /^\/workspace\/settings(?:\/|$)/, maxBytes: 2 * MiB },
  { path: /^\/signings\/(?!new\/?$|bulk\/?$)[^/]+(?:\/done)?\/?$/, maxBytes: 21 * MiB },
];

/**
 * The routes behind proxy.ts whose bodies Node's server caps before Next buffers them
 * (lib/net/early-body-guard.mjs). Each cap is the one its route handler declares, so the answer is
 * the same 413 whichever layer gives it.
 * @type {import("../net/early-body-guard.d.mts").EarlyBodyCap[]}
 */
export const EARLY_BODY_CAPS = [
  { path: /^\/api\/auth\//, maxBytes: AUTH_ROUTE_MAX_BODY_BYTES },
  { path: /^\/api\/bank\//, maxBytes: BANK_ROUTE_MAX_BODY_BYTES },
  ...UPLOAD_PAGE_CAPS,
  // Every other page (not /v1, whose routes cap their own bodies, nor the other /api routes, nor Next's assets).
  { path: /^\/(?!v1(?:\/|$)|api\/|_next\/)/, maxBytes: PAGE_MAX_BODY_BYTES },
];
