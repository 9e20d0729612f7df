import type { EarlyBodyCap } from "../net/early-body-guard.d.mts";

export const AUTH_ROUTE_MAX_BODY_BYTES: number;
export const BANK_ROUTE_MAX_BODY_BYTES: number;
export const PAGE_MAX_BODY_BYTES: number;
export const UPLOAD_PAGE_CAPS: EarlyBodyCap[];
export const EARLY_BODY_CAPS: EarlyBodyCap[];
