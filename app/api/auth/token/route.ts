// POST /api/auth/token – exchanges a personal API key for a short-lived /v1 access token.
import { z } from "zod";
import { exchangeApiKeyThrottled } from "@/lib/auth/exchange-api-key-throttled";
import { requestClientIp } from "@/lib/auth/request-client-ip";
import { prepareDatabase } from "@/lib/boot";
import { BadRequest, errorJsonResponse } from "@/lib/errors";

export const dynamic = "force-dynamic";

const BodySchema = z.object({ apiKey: z.string().min(1) });

const NO_STORE = { "Cache-Control": "no-store" };

/** The key comes from the JSON body `{ apiKey }`, or else from `Authorization: Bearer <apiKey>`. */
async function readApiKey(request: Request): Promise<string> {
  const text = await request.text();
  if (text.trim() !== "") {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw BadRequest("Request body must be valid JSON.");
    }
    const parsed = BodySchema.safeParse(json);
    if (!parsed.success) throw BadRequest('Request body must be { "apiKey": string }.');
    return parsed.data.apiKey.trim();
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
  if (bearer?.[1]) return bearer[1];
  throw BadRequest('Send { "apiKey": "csk_…" } as JSON or Authorization: Bearer <apiKey>.');
}

export async function POST(request: Request): Promise<Response> {
  try {
    const apiKey = await readApiKey(request);
    const { db } = await prepareDatabase();
    const token = await exchangeApiKeyThrottled(db, { apiKey, clientIp: requestClientIp(request.headers) });
    return Response.json(token, { status: 200, headers: NO_STORE });
  } catch (error) {
    const response = errorJsonResponse(error);
    response.headers.set("Cache-Control", "no-store");
    return response;
  }
}
