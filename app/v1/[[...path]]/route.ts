// /v1/* – every versioned API operation, served by the core-api fetch handler (lib/api/app.ts), the
// same handler the standalone core-api (`npm run start:api`) serves. No rewrite in front: Next's
// router lands here directly.
import { serveCoreApi } from "@/lib/next/core-api-route";

export const dynamic = "force-dynamic";
// The longest answer here is the comment stream (REALTIME_STREAM_MAX_MS, 10 minutes by default) and
// the largest uploads; a serverless host ends the function at maxDuration seconds (docs/deploy.md).
export const maxDuration = 800;

export {
  serveCoreApi as GET,
  serveCoreApi as POST,
  serveCoreApi as PUT,
  serveCoreApi as PATCH,
  serveCoreApi as DELETE,
  serveCoreApi as HEAD,
  serveCoreApi as OPTIONS,
};
