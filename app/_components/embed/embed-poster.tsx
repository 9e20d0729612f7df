"use client";

import { useEffect } from "react";

export type EmbedMessageType = "ready" | "signed" | "declined" | "completed" | "bank_linked" | "error";

/**
 * Tells the parent page of an embedded signing frame what happened, with `postMessage` addressed to
 * each allowed origin in turn: the browser delivers a message only when its target origin is the
 * parent's, so nothing reaches a page that is not on the organization's list. `ready` on every page;
 * each event once per frame (sessionStorage remembers what was sent).
 */
export function EmbedPoster({ origins, signingId, events, reason }: { origins: string[]; signingId: string | null; events: EmbedMessageType[]; reason?: string }) {
  // Strings, not the arrays: a refresh of the page re-renders with new arrays of the same values.
  const key = events.join(",");
  const targets = origins.join(" ");
  useEffect(() => {
    if (window.parent === window) return;
    const post = (type: EmbedMessageType) => {
      const message = { source: "closing-embed", type, signingId, ...(reason ? { reason } : {}) };
      for (const origin of targets.split(" ")) window.parent.postMessage(message, origin);
    };
    post("ready");
    for (const type of key ? (key.split(",") as EmbedMessageType[]) : []) {
      const memo = `closing-embed:${signingId ?? "-"}:${type}`;
      let seen = false;
      try {
        seen = window.sessionStorage.getItem(memo) !== null;
        window.sessionStorage.setItem(memo, "1");
      } catch {
        // Storage can be unavailable in a third-party frame: send it again rather than never.
      }
      if (!seen || type === "error") post(type);
    }
  }, [targets, signingId, key, reason]);
  return null;
}
