import type { RealtimeBus } from "@/lib/realtime/realtime-bus";
import { log } from "@/lib/log";
import type { CommentJson } from "./serialize-comment";

/** The real-time channel of one document's comments. */
export const commentChannel = (documentId: string) => `comments:${documentId}`;

export type CommentEvent =
  | { type: "created" | "updated"; comment: CommentJson }
  | { type: "deleted"; comment: Pick<CommentJson, "id" | "documentId" | "parentId"> };

/**
 * Publishes after the change committed. The change stands even when the bus is down: listeners
 * miss one live update and see it on their next list call.
 */
export async function publishCommentEvent(bus: RealtimeBus, event: CommentEvent): Promise<void> {
  try {
    await bus.publish(commentChannel(event.comment.documentId), event);
  } catch (error) {
    log.warn("could not publish a comment event", { type: event.type, commentId: event.comment.id, error });
  }
}
