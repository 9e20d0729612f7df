// /api/v1/* – the same operations as /v1/* (app/v1/[[...path]]), served by the core-api fetch handler.
import { serveCoreApi } from "@/lib/next/core-api-route";

export const dynamic = "force-dynamic";

export {
  serveCoreApi as GET,
  serveCoreApi as POST,
  serveCoreApi as PUT,
  serveCoreApi as PATCH,
  serveCoreApi as DELETE,
  serveCoreApi as HEAD,
  serveCoreApi as OPTIONS,
};
