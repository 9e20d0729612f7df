import type { z } from "zod";
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { prepareDatabase } from "@/lib/boot";
import { errorJsonResponse, Unauthorized } from "@/lib/errors";
import { assertSameOrigin } from "./assert-same-origin";
import { parseJsonBody } from "./parse-json-body";
import { readCappedBody } from "./read-capped-body";

type SessionOption = { unauthorized: string };

export type RouteOptions<S extends z.ZodType | undefined, A extends SessionOption | undefined> = {
  /** Bodies over this many bytes are refused with 413 while they stream in, before any other check. */
  maxBodyBytes: number;
  /** A check that needs only the URL and headers (e.g. a webhook token), run before the body is read. */
  preflight?: (request: Request) => void;
  /** The body is JSON validated by this schema (400 otherwise); without it the handler gets the raw bytes. */
  body?: S;
  /** The 400 message when the JSON does not match `body`. */
  invalidBody?: string;
  /** A browser session is required: 401 with this message without one. */
  session?: A;
  /**
   * The package whose signer-session cookie (opened from an emailed link) may stand for the browser
   * session, read from the request (e.g. a `?package=` parameter); null or a malformed id: none.
   */
  signerPackage?: (request: Request) => string | null;
  /** Cookie-authenticated writes must come from our own origin (403 otherwise); GET and HEAD pass. */
  sameOrigin?: boolean;
  /** Headers set on every response of the route, errors included (e.g. `Cache-Control: no-store`). */
  headers?: Record<string, string>;
};

export type RouteContext<S extends z.ZodType | undefined, A extends SessionOption | undefined> = {
  request: Request;
  /** The body bytes as sent (at most `maxBodyBytes`). */
  rawBody: Uint8Array;
  body: S extends z.ZodType ? z.output<S> : undefined;
  principal: A extends SessionOption ? Principal : null;
  /** The database, opened when the route asked for a session; otherwise call `prepareDatabase()`. */
  db: A extends SessionOption ? Db : null;
  /** Next's second handler argument (`{ params }`). */
  params: unknown;
};

/**
 * The one wrapper for `app/api/**` route handlers. In order: preflight → body cap (413, while streaming) →
 * session (401) → same origin (403) → JSON body against its schema (400) → the handler; any thrown
 * error becomes `{ error }` through the one mapper. The session comes from `requestPrincipal`, so
 * a route never knows which identity provider signed the user in.
 */
export function routeHandler<S extends z.ZodType | undefined = undefined, A extends SessionOption | undefined = undefined>(
  options: RouteOptions<S, A>,
  handler: (context: RouteContext<S, A>) => Promise<Response> | Response,
): (request: Request, params?: unknown) => Promise<Response> {
  return async (request, params) => {
    let response: Response;
    try {
      options.preflight?.(request);
      const rawBody = await readCappedBody(request, options.maxBodyBytes);
      let db: Db | null = null;
      let principal: Principal | null = null;
      if (options.session) {
        db = (await prepareDatabase()).db;
        // Loaded on first use: webhook routes never pull in the identity provider's SDKs (next-auth's
        // CommonJS providers do not load under plain Node ESM, where the payments test app runs).
        const { requestPrincipal } = await import("./request-principal");
        const packageId = options.signerPackage?.(request) ?? null;
        principal = await requestPrincipal(db, { request, link: packageId ? { kind: "signer", packageId } : undefined });
        if (!principal) throw Unauthorized(options.session.unauthorized);
      }
      if (options.sameOrigin && request.method !== "GET" && request.method !== "HEAD") assertSameOrigin(request);
      const body = options.body ? parseJsonBody(rawBody, { schema: options.body, invalidBody: options.invalidBody }) : undefined;
      response = await handler({ request, rawBody, body, principal, db, params } as RouteContext<S, A>);
    } catch (error) {
      response = errorJsonResponse(error);
    }
    for (const [name, value] of Object.entries(options.headers ?? {})) response.headers.set(name, value);
    return response;
  };
}
