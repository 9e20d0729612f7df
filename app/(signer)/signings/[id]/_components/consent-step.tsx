"use client";

import { useId } from "react";
import { ESIGN_DISCLOSURE_VERSION } from "@/lib/signings/esign-disclosure";
import type { ConsentFormState } from "../consent-form";
import { focusRing } from "@/components/ui/classes";

/**
 * The electronic-records disclosure (in the spirit of the US ESIGN Act, 15 U.S.C. § 7001(c)) and the
 * explicit agreement. The form posts natively, so it works before the page hydrates.
 */
export function ConsentStep({
  signingId,
  state,
  action,
  pending,
}: {
  signingId: string;
  state: ConsentFormState;
  action: (formData: FormData) => void;
  pending: boolean;
}) {
  const id = useId();
  const error = state.status === "error" ? state.message : null;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-slate-300 bg-white p-4">
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-950">
        Agree to sign electronically
      </h3>
      <p className="text-sm text-slate-800">Before you sign, please read how electronic records work for this package.</p>
      <dl className="space-y-2 text-sm text-slate-800">
        <div>
          <dt className="font-semibold text-slate-950">Paper copies</dt>
          <dd>
            You can ask the lender who sent this package for a paper copy of any document, free of charge. You can also
            download and print each document from this page now, and your signed copies later from your signature records.
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">Withdrawing your consent</dt>
          <dd>
            You can withdraw this consent at any time before you finish, by declining the package on this page or by telling
            the lender. Withdrawing does not undo a signature you have already given; the lender will complete the rest with
            you on paper, which can take longer.
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">What you need</dt>
          <dd>
            A current web browser (Chrome, Edge, Firefox or Safari) with JavaScript turned on, an email account, and a device
            that can open, save or print PDF files.
          </dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">Keeping your contact details current</dt>
          <dd>
            If your email address or phone number changes, tell the lender (reply to their invitation email) so notices about
            this package reach you.
          </dd>
        </div>
      </dl>
      <form action={action} className="space-y-3">
        <input type="hidden" name="signingId" value={signingId} />
        <input type="hidden" name="disclosureVersion" value={ESIGN_DISCLOSURE_VERSION} />
        <div className="flex items-start gap-3">
          <input
            id={`${id}-accept`}
            type="checkbox"
            name="accept"
            value="yes"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="mt-0.5 size-5 shrink-0 accent-blue-700"
          />
          <label htmlFor={`${id}-accept`} className="text-sm font-medium text-slate-950">
            I have read this disclosure and agree to receive and sign these documents electronically.
          </label>
        </div>
        {error ? (
          <p id={`${id}-error`} role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            {error}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={pending}
          className={`min-h-11 w-full rounded-md bg-blue-700 px-4 py-2.5 text-base font-semibold text-white hover:bg-blue-800 ${focusRing} disabled:cursor-wait disabled:opacity-70`}
        >
          {pending ? "Saving…" : "Agree and continue"}
        </button>
      </form>
    </section>
  );
}
