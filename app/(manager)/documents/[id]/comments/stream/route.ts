// GET /documents/:id/comments/stream – live comment events for the signed-in manager's browser (server-sent events, like /v1's stream but with the session cookie).
import { z } from "zod";
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import type { CommentEvent } from "@/lib/comments/comment-events";
import { subscribeToComments } from "@/lib/comments/subscribe-to-comments";
import { getEnv } from "@/lib/env";
import { BadRequest, errorJsonResponse, Unauthorized } from "@/lib/errors";

export const dynamic = "force-dynamic";
// The stream lives REALTIME_STREAM_MAX_MS (10 minutes by default), under this limit (docs/deploy.md).
export const maxDuration = 800;

const ParamsSchema = z.object({ id: z.uuid() });

type Params = { params: Promise<{ id: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  try {
    const parsed = ParamsSchema.safeParse(await params);
    if (!parsed.success) throw BadRequest("The document id must be a UUID.");
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to follow comments.");

    const encoder = new TextEncoder();
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    // Events that arrive between subscribing and the stream starting are held and sent first.
    const held: string[] = [];
    const send = (event: string, data: unknown) => {
      const chunk = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
      if (!controller) return void held.push(chunk);
      try {
        controller.enqueue(encoder.encode(chunk));
      } catch {
        // The client went away; the abort handler cleans up.
      }
    };
    // Subscribed before the response starts: an unreachable bus is a 503 JSON answer, not a broken stream.
    const { documentId, unsubscribe } = await subscribeToComments(db, {
      principal,
      documentId: parsed.data.id,
      listener: (event: CommentEvent) => send(event.type, event.comment),
    });
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    let lifetime: ReturnType<typeof setTimeout> | undefined;
    const close = () => {
      if (heartbeat) clearInterval(heartbeat);
      if (lifetime) clearTimeout(lifetime);
      heartbeat = undefined;
      lifetime = undefined;
      void unsubscribe();
      try {
        controller?.close();
      } catch {
        // Already closed.
      }
    };
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        c.enqueue(encoder.encode(`event: ready\ndata: ${JSON.stringify({ documentId })}\n\n`));
        for (const chunk of held.splice(0)) c.enqueue(encoder.encode(chunk));
        heartbeat = setInterval(() => send("heartbeat", { at: new Date().toISOString() }), getEnv().REALTIME_HEARTBEAT_MS);
        // Authorization was checked when the stream opened: it ends after a while, the browser
        // reconnects, and a person who lost access (or signed out) is refused then.
        lifetime = setTimeout(close, getEnv().REALTIME_STREAM_MAX_MS);
      },
      cancel: close,
    });
    request.signal.addEventListener("abort", close, { once: true });
    return new Response(body, {
      status: 200,
      headers: {
        "Content-Type": "text/event-stream; charset=utf-8",
        "Cache-Control": "no-cache, no-transform",
        Connection: "keep-alive",
        "X-Accel-Buffering": "no",
      },
    });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
