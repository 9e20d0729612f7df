import type { EarlyBodyCap } from "@/lib/net/early-body-guard";
import { BANK_ROUTE } from "./bank-route";

/** next-auth's routes and the API-key exchange: a credentials form with its CSRF token is under 1 KiB. */
export const AUTH_ROUTE_MAX_BODY_BYTES = 8 * 1024;

/**
 * The routes behind proxy.ts whose bodies Node's server caps before Next buffers them
 * (lib/net/early-body-guard.ts). Each cap is the one its route handler declares, so the answer is
 * the same 413 whichever layer gives it.
 */
export const EARLY_BODY_CAPS: EarlyBodyCap[] = [
  { path: /^\/api\/auth\//, maxBytes: AUTH_ROUTE_MAX_BODY_BYTES },
  { path: /^\/api\/bank\//, maxBytes: BANK_ROUTE.maxBodyBytes },
];
