// GET /documents/:id/comments/stream – live comment events for the signed-in manager's browser (server-sent events, the
// same stream as /v1's with the session cookie: it resumes with the Last-Event-ID that EventSource sends when it reconnects).
import { z } from "zod";
import { CommentStreamHeadersSchema } from "@/lib/api/schemas/comments";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { openCommentEventStream } from "@/lib/comments/comment-event-stream";
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
    const headers = CommentStreamHeadersSchema.safeParse({ "last-event-id": request.headers.get("last-event-id") ?? undefined });
    if (!headers.success) throw BadRequest(headers.error.issues[0]!.message);
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) throw Unauthorized("Sign in to follow comments.");
    const lastEventId = headers.data["last-event-id"];
    return await openCommentEventStream(db, {
      principal,
      documentId: parsed.data.id,
      lastEventId: lastEventId === undefined ? undefined : Number(lastEventId),
      signal: request.signal,
    });
  } catch (error) {
    return errorJsonResponse(error);
  }
}
