import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { getEnv } from "@/lib/env";
import { commentEventsAfter, type CommentEvent } from "./comment-events";
import { subscribeToComments } from "./subscribe-to-comments";

/**
 * A document's live comment events as a server-sent events response, the one implementation behind
 * `/v1/documents/{id}/comments/stream` (tokens) and the console's `/documents/{id}/comments/stream`
 * (session cookie):
 * - subscribed before the response starts, so a missing document, a scope refusal or an unreachable
 *   bus is a JSON error answer, not a broken stream;
 * - `ready` first; then, with `lastEventId` (the `Last-Event-ID` header, sent by EventSource by
 *   itself when it reconnects), the events after it from the document's event log; then the live
 *   ones, each once (an event both logged and published meanwhile is sent once), each with its `id`;
 * - a heartbeat every REALTIME_HEARTBEAT_MS; the stream ends after REALTIME_STREAM_MAX_MS (a
 *   serverless function has a maximum duration, and access is checked again when the client
 *   reconnects), or when the client goes away (`signal`).
 */
export async function openCommentEventStream(
  db: Db,
  options: { principal: Principal; documentId: string; lastEventId?: number; signal: AbortSignal },
): Promise<Response> {
  const held: CommentEvent[] = [];
  let deliver: (event: CommentEvent) => void = (event) => void held.push(event);
  const { documentId, unsubscribe } = await subscribeToComments(db, {
    principal: options.principal,
    documentId: options.documentId,
    listener: (event) => deliver(event),
  });
  let missed: CommentEvent[] = [];
  if (options.lastEventId !== undefined) {
    try {
      missed = await commentEventsAfter(db, { documentId, afterId: options.lastEventId });
    } catch (error) {
      await unsubscribe();
      throw error;
    }
  }

  const env = getEnv();
  const encoder = new TextEncoder();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let lifetime: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  let controller: ReadableStreamDefaultController<Uint8Array>;
  const send = (event: string, data: unknown, id?: number) => {
    if (closed) return;
    try {
      controller.enqueue(encoder.encode(`${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    } catch {
      // The client went away; close() cleans up.
    }
  };
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    clearTimeout(lifetime);
    void unsubscribe();
    try {
      controller.close();
    } catch {
      // Already closed.
    }
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      send("ready", { documentId });
      let lastSent = options.lastEventId ?? 0;
      deliver = (event) => {
        if (event.eventId !== undefined) {
          if (event.eventId <= lastSent) return;
          lastSent = event.eventId;
        }
        send(event.type, event.comment, event.eventId);
      };
      missed.forEach(deliver);
      held.splice(0).forEach(deliver);
      heartbeat = setInterval(() => send("heartbeat", { at: new Date().toISOString() }), env.REALTIME_HEARTBEAT_MS);
      lifetime = setTimeout(close, env.REALTIME_STREAM_MAX_MS);
    },
    cancel: close,
  });
  if (options.signal.aborted) close();
  else options.signal.addEventListener("abort", close, { once: true });
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache, no-transform",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
}
