import { isUuid } from "@/lib/ids";
import { BANK_ROUTE_MAX_BODY_BYTES } from "./early-body-caps.mjs";

/**
 * The package of a signer-session caller, from `?package=<id>`: a borrower who opened the emailed
 * link has that package's signer-session cookie and no account session. Without the parameter (or
 * without that package's cookie) the account session decides, as before.
 */
function signerPackage(request: Request): string | null {
  const value = new URL(request.url).searchParams.get("package");
  return value && isUuid(value) ? value.toLowerCase() : null;
}

/**
 * What every `/api/bank/*` route declares: the browser session (401; a signer session of `?package=` counts), same origin for writes (403),
 * no caching, and a 4 KiB body cap (the largest body is `{ "public_token": … }`, under 600 bytes).
 */
export const BANK_ROUTE = {
  maxBodyBytes: BANK_ROUTE_MAX_BODY_BYTES,
  session: { unauthorized: "Sign in to link a bank account." },
  signerPackage,
  sameOrigin: true,
  headers: { "Cache-Control": "no-store" },
} as const;
