"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { verifyAction } from "../verify-action";
import type { VerifyState } from "../verify-state";
import { formatDateTime } from "@/lib/format";


/** Upload → answer. A native multipart form posting to a server action, so it works before hydration. */
export function VerifyForm() {
  const [state, action] = useActionState<VerifyState, FormData>(verifyAction, { status: "idle" });
  return (
    <div className="space-y-6">
      <form action={action} className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
        <div className="space-y-1">
          <label htmlFor="verify-file" className="block text-sm font-medium text-slate-900">
            PDF to check
          </label>
          <input
            id="verify-file"
            name="file"
            type="file"
            accept="application/pdf,.pdf"
            required
            aria-describedby="verify-file-hint verify-error"
            aria-invalid={state.status === "error" || undefined}
            className="block w-full text-sm text-slate-900 file:mr-3 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-3 file:py-2 file:text-sm file:font-semibold file:text-slate-900 hover:file:bg-slate-50"
          />
          <p id="verify-file-hint" className="text-sm text-slate-700">
            The file is checked and then discarded; nothing is stored. Up to 11 MiB.
          </p>
          <p id="verify-error" className="text-sm font-medium text-red-800 empty:hidden">
            {state.status === "error" ? state.message : ""}
          </p>
        </div>
        <SubmitButton pendingLabel="Checking…">Check the PDF</SubmitButton>
      </form>

      <div role="status" aria-live="polite" data-testid="verify-result">
        {state.status === "ok" ? <VerifyResult state={state} /> : null}
      </div>
    </div>
  );
}

function VerifyResult({ state }: { state: Extract<VerifyState, { status: "ok" }> }) {
  const { result } = state;
  if (result.outcome === "sealed") {
    return (
      <section aria-labelledby="verify-result-heading" className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-emerald-950 sm:p-6">
        {result.lender.logoPath ? (
          // The lender's uploaded logo, served from our origin; its name follows in the text.
          // eslint-disable-next-line @next/next/no-img-element
          <img src={result.lender.logoPath} alt="" className="h-10 w-auto max-w-[180px] object-contain" data-testid="verify-lender-logo" />
        ) : null}
        <h2 id="verify-result-heading" className="text-lg font-semibold">
          <span aria-hidden="true">✓ </span>Sealed by us, unchanged
        </h2>
        <p>
          <span className="font-medium">{state.fileName}</span> is exactly the file we sealed: {result.fileLabel} of the package “{result.packageTitle}”
          {result.lender.displayName ? <> from {result.lender.displayName}</> : null}, sealed on {formatDateTime(result.sealedAt, "long")}.
        </p>
        {result.trustedTime ? (
          <p data-testid="verify-trusted-time">
            Trusted time: {formatDateTime(result.trustedTime, "long")}, from the seal&rsquo;s timestamp by an independent time-stamp authority (RFC 3161).
          </p>
        ) : null}
        <p className="break-all text-sm">SHA-256 {result.sha256}</p>
        {result.transferableRecord ? <RecordControl record={result.transferableRecord} authoritative /> : null}
      </section>
    );
  }
  if (result.outcome === "record_copy") {
    return (
      <section aria-labelledby="verify-result-heading" className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:p-6">
        <h2 id="verify-result-heading" className="text-lg font-semibold">
          A copy of a transferable record
        </h2>
        <p>
          <span className="font-medium">{state.fileName}</span> is a copy marked COPY, not the authoritative copy. It does not carry control of the record.
        </p>
        <p className="break-all text-sm">SHA-256 {result.sha256}</p>
        <RecordControl record={result.transferableRecord} authoritative={false} />
      </section>
    );
  }
  if (result.outcome === "modified") {
    const why =
      result.reason === "appended"
        ? "Something was added to it after it was sealed."
        : result.reason === "changed"
          ? "Its contents changed after it was sealed."
          : "Its seal checks out, but it is not a copy we sealed.";
    return (
      <section aria-labelledby="verify-result-heading" className="space-y-2 rounded-lg border border-red-300 bg-red-50 p-4 text-red-950 sm:p-6">
        <h2 id="verify-result-heading" className="text-lg font-semibold">
          <span aria-hidden="true">✗ </span>Modified after sealing
        </h2>
        <p>
          <span className="font-medium">{state.fileName}</span> carries our seal, but it is not the file we sealed. {why} Ask the sender for the sealed original.
        </p>
        <p className="break-all text-sm">SHA-256 {result.sha256}</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="verify-result-heading" className="space-y-2 rounded-lg border border-slate-300 bg-white p-4 text-slate-900 sm:p-6">
      <h2 id="verify-result-heading" className="text-lg font-semibold">
        Not sealed by us
      </h2>
      <p>
        We did not seal <span className="font-medium">{state.fileName}</span>, and it carries no seal of ours. An unsigned copy, a printout scanned back, or a
        document from elsewhere looks like this.
      </p>
      <p className="break-all text-sm">SHA-256 {result.sha256}</p>
    </section>
  );
}

const CONTROL_ACTIONS: Record<string, string> = {
  established: "Authoritative copy established",
  transfer_offered: "Transfer offered",
  transfer_accepted: "Transfer accepted",
  transfer_declined: "Transfer declined",
  transfer_withdrawn: "Transfer withdrawn",
  pledged: "Pledged",
  released: "Pledge released",
  paper_out: "Converted to paper",
};

type RecordControlView = NonNullable<Extract<Extract<VerifyState, { status: "ok" }>["result"], { outcome: "record_copy" }>["transferableRecord"]>;

function RecordControl({ record, authoritative }: { record: RecordControlView; authoritative: boolean }) {
  return (
    <div className="space-y-2 border-t border-current/20 pt-2" data-testid="verify-record-control">
      <h3 className="font-semibold">Transferable record</h3>
      {record.status === "paper_out" ? (
        <p>This record was converted to paper; its electronic authoritative copy is retired.</p>
      ) : (
        <p>
          {authoritative ? "This file is the record's authoritative copy. " : null}
          Control is held by <span className="font-medium" data-testid="verify-record-controller">{record.controller}</span>.
        </p>
      )}
      <p className="break-all text-sm">Authoritative copy SHA-256 {record.authoritativeSha256}</p>
      <ol className="list-decimal space-y-1 pl-5 text-sm">
        {record.history.map((entry, i) => (
          <li key={i}>
            {CONTROL_ACTIONS[entry.action] ?? entry.action}
            {entry.from ? <> · from {entry.from}</> : null}
            {entry.to ? <> · to {entry.to}</> : null} · {formatDateTime(entry.at, "long")}
          </li>
        ))}
      </ol>
    </div>
  );
}
