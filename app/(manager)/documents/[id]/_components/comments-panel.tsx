"use client";

import { useRouter } from "next/navigation";
import { Fragment, useEffect, useState, type ReactNode } from "react";
import { CommentForm, type Member } from "./comment-form";

export type PanelComment = {
  id: string;
  parentId: string | null;
  authorUserId: string;
  authorName: string;
  body: string;
  mentionedUserIds: string[];
  createdAt: string;
  createdLabel: string;
  edited: boolean;
};

type Props = {
  documentId: string;
  comments: PanelComment[];
  members: Member[];
  currentUserId: string;
  canWrite: boolean;
};

type Live = "connecting" | "live" | "reconnecting" | "unavailable";

const LIVE_TEXT: Record<Live, string> = {
  connecting: "Connecting to live comments…",
  live: "Live: new comments appear here as they are posted.",
  reconnecting: "Live comments interrupted; reconnecting…",
  unavailable: "Live comments are unavailable right now. You can still post; reload to see new comments.",
};

const MENTION = /(?<![\w@])@([A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,})/g;

/** The body with `@email` mentions of known people shown as their name. */
function renderBody(body: string, byEmail: Map<string, Member>): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of body.matchAll(MENTION)) {
    const member = byEmail.get(match[1]!.toLowerCase());
    if (!member) continue;
    parts.push(body.slice(last, match.index));
    parts.push(
      <strong key={match.index} className="rounded bg-blue-50 px-0.5 font-semibold text-blue-900" title={member.email}>
        @{member.name}
      </strong>,
    );
    last = match.index + match[0].length;
  }
  parts.push(body.slice(last));
  return parts;
}

/**
 * Threaded comments with mentions, kept live through the session's SSE stream
 * (`/documents/<id>/comments/stream`): any event re-renders the page from the server
 * (`router.refresh()` keeps what is being typed). After a reconnect it refreshes too, since events
 * missed while disconnected are not replayed.
 */
export function CommentsPanel({ documentId, comments, members, currentUserId, canWrite }: Props) {
  const router = useRouter();
  const [live, setLive] = useState<Live>("connecting");
  const [announcement, setAnnouncement] = useState("");

  useEffect(() => {
    const source = new EventSource(`/documents/${documentId}/comments/stream`);
    let dropped = false;
    source.addEventListener("ready", () => {
      setLive("live");
      if (dropped) router.refresh();
      dropped = false;
    });
    const onChange = (kind: "created" | "updated" | "deleted") => (event: MessageEvent<string>) => {
      router.refresh();
      if (kind !== "created") return;
      try {
        const comment = JSON.parse(event.data) as { authorUserId: string; authorName: string; parentId: string | null };
        if (comment.authorUserId !== currentUserId) setAnnouncement(`New ${comment.parentId ? "reply" : "comment"} from ${comment.authorName}.`);
      } catch {
        // A malformed event only loses its announcement; the refresh shows the comment.
      }
    };
    source.addEventListener("created", onChange("created"));
    source.addEventListener("updated", onChange("updated"));
    source.addEventListener("deleted", onChange("deleted"));
    source.onerror = () => {
      dropped = true;
      setLive(source.readyState === EventSource.CLOSED ? "unavailable" : "reconnecting");
    };
    return () => source.close();
  }, [documentId, currentUserId, router]);

  const byEmail = new Map(members.map((m) => [m.email.toLowerCase(), m]));
  const byId = new Map(members.map((m) => [m.userId, m]));
  const children = new Map<string | null, PanelComment[]>();
  for (const c of comments) children.set(c.parentId, [...(children.get(c.parentId) ?? []), c]);

  function thread(parentId: string | null, depth: number): ReactNode {
    const list = children.get(parentId);
    if (!list) return null;
    return (
      <ol className={depth === 0 ? "space-y-4" : "mt-3 space-y-3 border-l-2 border-slate-200 pl-4"}>
        {list.map((c) => {
          const mentioned = c.mentionedUserIds.map((id) => byId.get(id)?.name).filter(Boolean);
          return (
            <li key={c.id}>
              <article aria-label={`${depth > 0 ? "Reply" : "Comment"} by ${c.authorName}`} className="space-y-1">
                <p className="text-sm">
                  <span className="font-semibold text-slate-900">{c.authorName}</span>{" "}
                  <time dateTime={c.createdAt} className="text-slate-600">
                    {c.createdLabel}
                  </time>
                  {c.edited ? <span className="text-slate-600"> (edited)</span> : null}
                </p>
                <p className="whitespace-pre-wrap break-words text-sm text-slate-900">{renderBody(c.body, byEmail)}</p>
                {mentioned.length > 0 ? <p className="text-xs text-slate-700">Mentions: {mentioned.join(", ")}</p> : null}
                {canWrite && depth < 4 ? (
                  <details className="group text-sm">
                    <summary className="cursor-pointer font-medium text-blue-800 hover:underline">Reply to {c.authorName}</summary>
                    <div className="mt-2">
                      <CommentForm documentId={documentId} parentId={c.id} members={members} label={`Your reply to ${c.authorName}`} />
                    </div>
                  </details>
                ) : null}
              </article>
              {thread(c.id, depth + 1)}
            </li>
          );
        })}
      </ol>
    );
  }

  return (
    <Fragment>
      <p className="text-xs text-slate-700" data-testid="comments-live-status">
        {LIVE_TEXT[live]}
      </p>
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {comments.length === 0 ? <p className="text-sm text-slate-700">No comments yet.</p> : thread(null, 0)}
      {canWrite ? (
        <div className="border-t border-slate-200 pt-4">
          <CommentForm documentId={documentId} members={members} label="New comment" />
        </div>
      ) : null}
    </Fragment>
  );
}
