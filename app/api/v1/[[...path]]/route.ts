// /api/v1/* – the same operations as /v1/* (app/v1/[[...path]]), served by the core-api fetch handler.
import { serveCoreApi } from "@/lib/next/core-api-route";

export const dynamic = "force-dynamic";
// As /v1: the comment stream and the largest uploads (docs/deploy.md).
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
