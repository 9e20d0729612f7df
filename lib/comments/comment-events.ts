import { and, asc, eq, gt, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { commentEvents } from "@/db/schema";
import type { RealtimeBus } from "@/lib/realtime/realtime-bus";
import { log } from "@/lib/log";
import type { CommentJson } from "./serialize-comment";

/** The real-time channel of one document's comments. */
export const commentChannel = (documentId: string) => `comments:${documentId}`;

/** How long the event log keeps a document's events for clients resuming with `Last-Event-ID`. */
export const COMMENT_EVENT_RETENTION_MS = 24 * 60 * 60_000;

/** Most missed events one reconnection replays; a client further behind lists the comments again. */
export const COMMENT_EVENT_REPLAY_MAX = 1000;

/** `eventId`: the event's id in the log (`comment_events`), the stream's SSE `id`; absent if it could not be written. */
export type CommentEvent = (
  | { type: "created" | "updated"; comment: CommentJson }
  | { type: "deleted"; comment: Pick<CommentJson, "id" | "documentId" | "parentId"> }
) & { eventId?: number };

/**
 * Records the event in the document's event log (for clients that reconnect with `Last-Event-ID`),
 * then publishes it, after the change committed. The change stands even when the log or the bus
 * fails: listeners miss one live update and see it on their next list call.
 */
export async function publishCommentEvent(db: Db, bus: RealtimeBus, event: CommentEvent): Promise<void> {
  let eventId: number | undefined;
  try {
    const documentId = event.comment.documentId;
    const [row] = await db
      .insert(commentEvents)
      .values({ chattelDocumentId: documentId, type: event.type, data: event.comment as Record<string, unknown> })
      .returning({ id: commentEvents.id });
    eventId = row!.id;
    await db
      .delete(commentEvents)
      .where(and(eq(commentEvents.chattelDocumentId, documentId), lt(commentEvents.createdAt, new Date(Date.now() - COMMENT_EVENT_RETENTION_MS))));
  } catch (error) {
    log.warn("could not record a comment event", { type: event.type, commentId: event.comment.id, error });
  }
  try {
    await bus.publish(commentChannel(event.comment.documentId), { ...event, eventId });
  } catch (error) {
    log.warn("could not publish a comment event", { type: event.type, commentId: event.comment.id, error });
  }
}

/** A document's logged events after `afterId`, oldest first (at most COMMENT_EVENT_REPLAY_MAX). */
export async function commentEventsAfter(db: Db, options: { documentId: string; afterId: number }): Promise<CommentEvent[]> {
  const rows = await db
    .select()
    .from(commentEvents)
    .where(and(eq(commentEvents.chattelDocumentId, options.documentId), gt(commentEvents.id, options.afterId)))
    .orderBy(asc(commentEvents.id))
    .limit(COMMENT_EVENT_REPLAY_MAX);
  return rows.map((row) => ({ type: row.type, comment: row.data, eventId: row.id }) as CommentEvent);
}
