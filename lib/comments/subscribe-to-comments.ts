import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { Unavailable } from "@/lib/errors";
import { commentChannel, type CommentEvent } from "./comment-events";
import { getCommentsContext } from "./get-comments-context";

/**
 * Subscribes to a readable document's comment events (the checks of every comments operation
 * first). Resolves once the subscription is active; an unreachable bus is a 503.
 */
export async function subscribeToComments(
  db: Db,
  options: { principal: Principal; documentId: string; listener: (event: CommentEvent) => void },
): Promise<{ documentId: string; unsubscribe: () => Promise<void> }> {
  const { bus, document } = await getCommentsContext(db, { ...options, write: false });
  const unsubscribe = await bus
    .subscribe(commentChannel(document.id), (message) => options.listener(message as CommentEvent))
    .catch(() => {
      throw Unavailable("The real-time service is not reachable.");
    });
  return { documentId: document.id, unsubscribe };
}
