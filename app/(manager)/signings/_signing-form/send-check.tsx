import type { ReactNode } from "react";
import { buttonClass } from "@/components/ui/button-class";
import { Dialog, DialogCloseButton } from "@/components/ui/dialog";
import type { SignerRow } from "./types";

/**
 * "Send…": what sending will do, from the form as it stands (the server checks again when
 * sending), and the button that submits the form with `intent=send`.
 */
export function SendCheck({ filled, documentCount, pending }: { filled: SignerRow[]; documentCount: number; pending: boolean }) {
  const orders = filled.map((row) => Number(row.routingOrder) || 1);
  const firstOrder = orders.length > 0 ? Math.min(...orders) : 1;
  const ready = filled.length > 0 && documentCount > 0;
  return (
    <Dialog
      id="send-check"
      title="Send this package?"
      openLabel="Send…"
      openVariant="primary"
      description={ready ? "Each signer receives an invitation email when their turn comes." : "The package is not ready to send yet."}
    >
      <ul className="space-y-1 text-sm" aria-label="Checks before sending">
        <CheckItem ok={filled.length > 0}>
          {filled.length > 0 ? `${filled.length} ${filled.length === 1 ? "signer" : "signers"}` : "Add at least one signer."}
        </CheckItem>
        <CheckItem ok={documentCount > 0}>
          {documentCount > 0 ? `${documentCount} ${documentCount === 1 ? "document" : "documents"}` : "Add at least one document."}
        </CheckItem>
        <CheckItem ok={documentCount > 0 && filled.length > 0}>
          {documentCount > 0 ? "Every signer has something to sign: each signs every document." : "Signers have nothing to sign yet."}
        </CheckItem>
      </ul>
      {filled.length > 0 ? (
        <>
          <h3 className="mt-4 text-sm font-semibold text-slate-900">What each signer receives</h3>
          <ul className="mt-1 space-y-1 text-sm text-slate-800">
            {filled.map((row, i) => (
              <li key={i}>
                <span className="font-medium">{row.name || "(no name)"}</span> ({row.email || "no email"}), order {row.routingOrder}:{" "}
                {(Number(row.routingOrder) || 1) === firstOrder ? "an invitation email now" : `an invitation email once order ${firstOrder} has signed`}, to
                sign {documentCount} {documentCount === 1 ? "document" : "documents"}.
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <DialogCloseButton>Keep editing</DialogCloseButton>
        <button type="submit" form="signing-form" name="intent" value="send" disabled={!ready || pending} className={buttonClass("primary")}>
          {pending ? "Sending…" : "Send now"}
        </button>
      </div>
    </Dialog>
  );
}

function CheckItem({ ok, children }: { ok: boolean; children: ReactNode }) {
  return (
    <li className={ok ? "text-green-900" : "font-medium text-red-800"}>
      <span aria-hidden="true">{ok ? "✓ " : "✗ "}</span>
      <span className="sr-only">{ok ? "Done: " : "Missing: "}</span>
      {children}
    </li>
  );
}
