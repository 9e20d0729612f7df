// POST /api/auth/token – exchanges a personal API key for a short-lived /v1 access token.
import { z } from "zod";
import { exchangeApiKeyThrottled } from "@/lib/api-keys/exchange-api-key-throttled";
import { requestClientIp } from "@/lib/auth/request-client-ip";
import { prepareDatabase } from "@/lib/boot";
import { BadRequest } from "@/lib/errors";
import { parseJsonBody } from "@/lib/next/parse-json-body";
import { AUTH_ROUTE_MAX_BODY_BYTES } from "@/lib/next/early-body-caps.mjs";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

const BodySchema = z.object({ apiKey: z.string().min(1) });

/** The key comes from the JSON body `{ apiKey }`, or else from `Authorization: Bearer <apiKey>`. */
function readApiKey(request: Request, rawBody: Uint8Array): string {
  if (Buffer.from(rawBody).toString("utf8").trim() !== "") {
    return parseJsonBody(rawBody, { schema: BodySchema, invalidBody: 'Request body must be { "apiKey": string }.' }).apiKey.trim();
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  if (bearer?.[1]) return bearer[1];
  throw BadRequest('Send { "apiKey": "csk_…" } as JSON or Authorization: Bearer <apiKey>.');
}

// An API key and its JSON wrapper are well under a kilobyte.
export const POST = routeHandler({ maxBodyBytes: AUTH_ROUTE_MAX_BODY_BYTES, headers: { "Cache-Control": "no-store" } }, async ({ request, rawBody }) => {
  const apiKey = readApiKey(request, rawBody);
  const { db } = await prepareDatabase();
  return Response.json(await exchangeApiKeyThrottled(db, { apiKey, clientIp: requestClientIp(request.headers) }), { status: 200 });
});
