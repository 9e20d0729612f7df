// `node --import=./lib/net/install-early-body-guard.mjs node_modules/next/dist/bin/next start` (npm start):
// the body caps of the routes behind proxy.ts, on Node's HTTP server before Next creates it, so they
// hold from the first request on (instrumentation.ts runs only when Next handles its first request).
import { installEarlyBodyGuard } from "./early-body-guard.mjs";
import { EARLY_BODY_CAPS } from "../next/early-body-caps.mjs";

installEarlyBodyGuard(EARLY_BODY_CAPS);
