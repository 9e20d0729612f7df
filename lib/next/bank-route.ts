import { BANK_ROUTE_MAX_BODY_BYTES } from "./early-body-caps.mjs";

/**
 * What every `/api/bank/*` route declares: the browser session (401), same origin for writes (403),
 * no caching, and a 4 KiB body cap (the largest body is `{ "public_token": … }`, under 600 bytes).
 */
export const BANK_ROUTE = {
  maxBodyBytes: BANK_ROUTE_MAX_BODY_BYTES,
  session: { unauthorized: "Sign in to link a bank account." },
  sameOrigin: true,
  headers: { "Cache-Control": "no-store" },
} as const;
