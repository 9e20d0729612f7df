// Plain JavaScript (types in early-body-caps.d.mts): the preload `lib/net/install-early-body-guard.mjs`
// reads it before Next starts, and the routes declare the same numbers from here.

/** next-auth's routes and the API-key exchange: a credentials form with its CSRF token is under 1 KiB. */
export const AUTH_ROUTE_MAX_BODY_BYTES = 8 * 1024;

/** `/api/bank/*`: the largest body is `{ "public_token": … }`, under 600 bytes. */
export const BANK_ROUTE_MAX_BODY_BYTES = 4 * 1024;

/**
 * The routes behind proxy.ts whose bodies Node's server caps before Next buffers them
 * (lib/net/early-body-guard.mjs). Each cap is the one its route handler declares, so the answer is
 * the same 413 whichever layer gives it.
 * @type {import("../net/early-body-guard.d.mts").EarlyBodyCap[]}
 */
export const EARLY_BODY_CAPS = [
  { path: /^\/api\/auth\//, maxBytes: AUTH_ROUTE_MAX_BODY_BYTES },
  { path: /^\/api\/bank\//, maxBytes: BANK_ROUTE_MAX_BODY_BYTES },
];
