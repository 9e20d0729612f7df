"use client";

import { useActionState, useId, useRef, useState } from "react";
import { SubmitButton } from "@/components/ui/button";
import type { FormState } from "@/app/_lib/validated-action";
import { createCommentAction } from "../actions";
import { focusRing } from "@/components/ui/classes";

export type Member = { userId: string; name: string; email: string };

const MAX_SUGGESTIONS = 6;

/** The `@word` right before the caret, if the caret is at the end of one. */
function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const match = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]!.toLowerCase() };
}

/**
 * A comment (or, with `parentId`, a reply). Typing `@` and a few letters offers the organization's
 * people; picking one writes `@their@email`, which the server resolves to a mention. Without
 * JavaScript the form posts as is and `@email` mentions still work.
 */
export function CommentForm({ documentId, parentId, members, label }: { documentId: string; parentId?: string; members: Member[]; label: string }) {
  const [state, action] = useActionState<FormState, FormData>(createCommentAction, { status: "idle" });
  const id = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const values = state.status === "error" ? state.values : {};
  const error = state.status === "error" ? (state.fieldErrors.body ?? state.message) : undefined;

  const suggestions = mention
    ? members.filter((m) => m.name.toLowerCase().includes(mention.query) || m.email.toLowerCase().startsWith(mention.query)).slice(0, MAX_SUGGESTIONS)
    : [];

  function onInput() {
    const el = textarea.current;
    setMention(el ? mentionQuery(el.value, el.selectionStart ?? el.value.length) : null);
  }

  function pick(member: Member) {
    const el = textarea.current;
    if (!el || !mention) return;
    const caret = el.selectionStart ?? el.value.length;
    const insert = `@${member.email} `;
    el.value = el.value.slice(0, mention.start) + insert + el.value.slice(caret);
    const position = mention.start + insert.length;
    el.focus();
    el.setSelectionRange(position, position);
    setMention(null);
  }

  return (
    <form key={JSON.stringify(values)} action={action} className="space-y-2">
      <input type="hidden" name="documentId" value={documentId} />
      {parentId ? <input type="hidden" name="parentId" value={parentId} /> : null}
      <label htmlFor={`${id}-body`} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      <textarea
        ref={textarea}
        id={`${id}-body`}
        name="body"
        required
        rows={parentId ? 2 : 3}
        maxLength={10000}
        defaultValue={values.body}
        onInput={onInput}
        onKeyDown={(e) => {
          if (e.key === "Escape") setMention(null);
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
        className="block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-blue-600 focus:outline-2 focus:outline-blue-600 aria-[invalid=true]:border-red-700"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        Type @ and a name to mention someone from your organization.
      </p>
      {suggestions.length > 0 ? (
        <ul aria-label="People to mention" className="max-w-md divide-y divide-slate-100 rounded-md border border-slate-300 bg-white shadow">
          {suggestions.map((m) => (
            <li key={m.userId}>
              <button
                type="button"
                onClick={() => pick(m)}
                className={`flex w-full flex-col items-start px-3 py-2 text-left text-sm hover:bg-blue-50 ${focusRing}`}
              >
                <span className="font-medium text-slate-900">Mention {m.name}</span>
                <span className="text-xs text-slate-700">{m.email}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-800">
          {error}
        </p>
      ) : null}
      <p role="status" aria-live="polite" className="text-sm text-green-800 empty:hidden">
        {state.status === "ok" ? state.message : ""}
      </p>
      <SubmitButton pendingLabel="Posting…" variant={parentId ? "secondary" : "primary"}>
        {parentId ? "Post reply" : "Post comment"}
      </SubmitButton>
    </form>
  );
}
