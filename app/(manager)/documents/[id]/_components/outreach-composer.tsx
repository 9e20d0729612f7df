"use client";

import { startTransition, useActionState, useEffect, useId, useRef } from "react";
import { SubmitButton, Button } from "@/components/ui/button";
import { FormMessage, SelectField, TextAreaField, InputField } from "@/components/ui/field";
import type { FormState } from "@/app/_lib/validated-action";
import { previewOutreachAction, sendOutreachAction } from "../actions";

export type Preview = { to: string; subject: string; body: string; values: Record<string, string> };
type Option = { value: string; label: string };

type Props = { documentId: string; recipients: Option[]; purposes: Option[]; variables: string[] };

const PREVIEW_DELAY_MS = 400;

/**
 * Compose an outreach message from a template: recipient, purpose, a personal message and optional
 * subject/body overrides. The preview is rendered on the server by the same function that renders
 * the mail (`previewOutreachMessage`), as you type; "Preview" does the same without JavaScript.
 */
export function OutreachComposer({ documentId, recipients, purposes, variables }: Props) {
  const [sent, send] = useActionState<FormState, FormData>(sendOutreachAction, { status: "idle" });
  const [preview, requestPreview, previewPending] = useActionState<FormState<Preview>, FormData>(previewOutreachAction, { status: "idle" });
  const form = useRef<HTMLFormElement>(null);
  const timer = useRef<number | undefined>(undefined);
  const id = useId();
  // What was typed, after a failed send, or after a preview posted without JavaScript (a full page).
  const sentValues = sent.status === "error" ? sent.values : undefined;
  const values = sentValues ?? (preview.status === "error" ? preview.values : preview.status === "ok" ? (preview.data?.values ?? {}) : {});
  const errors = sent.status === "error" ? sent.fieldErrors : {};
  const field = (name: string) => errors[`draft.${name}`];

  const refreshPreview = () => {
    if (!form.current) return;
    const data = new FormData(form.current);
    startTransition(() => requestPreview(data));
  };

  useEffect(() => {
    refreshPreview();
    return () => window.clearTimeout(timer.current);
    // Once on mount: the first preview with the defaults.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // After a message is queued the form is reset by React; the preview follows it.
  useEffect(() => {
    if (sent.status === "ok") refreshPreview();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sent]);

  const schedulePreview = () => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(refreshPreview, PREVIEW_DELAY_MS);
  };

  if (recipients.length === 0) {
    return (
      <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-700">
        Outreach goes only to the people recorded on the document. Add the borrower&apos;s email, a co-borrower or a dealer contact first.
      </p>
    );
  }

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <form ref={form} key={JSON.stringify(sentValues ?? {})} action={send} onInput={schedulePreview} onChange={schedulePreview} className="space-y-4">
        <input type="hidden" name="documentId" value={documentId} />
        <SelectField id={`${id}-recipient`} name="recipient" label="To" defaultValue={values.recipient ?? recipients[0]!.value} error={field("recipientEmail") ?? field("recipientKind")}>
          {recipients.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </SelectField>
        <SelectField id={`${id}-purpose`} name="purpose" label="Template" defaultValue={values.purpose ?? purposes[0]!.value} error={field("purpose")}>
          {purposes.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          id={`${id}-message`}
          name="message"
          label="Personal message"
          hint="Fills {{message}} in the template. Required for a custom message."
          rows={3}
          maxLength={5000}
          defaultValue={values.message}
          error={field("message")}
        />
        <details className="rounded-md border border-slate-200 p-3 text-sm" open={Boolean(values.subject || values.body)}>
          <summary className="cursor-pointer font-medium text-slate-900">Change the subject or body</summary>
          <div className="mt-3 space-y-3">
            <p className="text-xs text-slate-700">
              Leave empty to use the template. Variables: {variables.map((v) => `{{${v}}}`).join(", ")}.
            </p>
            <InputField id={`${id}-subject`} name="subject" label="Subject" maxLength={300} defaultValue={values.subject} error={field("subject")} />
            <TextAreaField id={`${id}-body`} name="body" label="Body" rows={6} maxLength={20000} defaultValue={values.body} error={field("body")} />
          </div>
        </details>
        <FormMessage state={sent} />
        <div className="flex flex-wrap gap-2">
          <SubmitButton pendingLabel="Sending…">Send message</SubmitButton>
          <Button
            type="submit"
            variant="secondary"
            formAction={requestPreview}
            onClick={(e) => {
              // With JavaScript: preview without resetting the form.
              e.preventDefault();
              refreshPreview();
            }}
          >
            Preview
          </Button>
        </div>
      </form>

      <section aria-labelledby={`${id}-preview`} aria-busy={previewPending} className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-4">
        <h3 id={`${id}-preview`} className="text-sm font-semibold text-slate-900">
          Preview
        </h3>
        {preview.status === "ok" && preview.data ? (
          <div className="space-y-2 text-sm" data-testid="outreach-preview">
            <p>
              <span className="text-slate-700">To:</span> {preview.data.to}
            </p>
            <p>
              <span className="text-slate-700">Subject:</span> <span className="font-medium">{preview.data.subject}</span>
            </p>
            <pre className="whitespace-pre-wrap rounded bg-white p-3 font-sans text-sm text-slate-900">{preview.data.body}</pre>
          </div>
        ) : preview.status === "error" ? (
          <p className="text-sm text-red-800">{preview.message}</p>
        ) : (
          <p className="text-sm text-slate-700">The message as it will be sent appears here.</p>
        )}
      </section>
    </div>
  );
}
