import type { EarlyBodyCap } from "../net/early-body-guard.d.mts";

export const AUTH_ROUTE_MAX_BODY_BYTES: number;
export const BANK_ROUTE_MAX_BODY_BYTES: number;
export const EARLY_BODY_CAPS: EarlyBodyCap[];
