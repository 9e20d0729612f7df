"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import type { FormState } from "../../../_lib/validated-action";
import { resendInvitationAction } from "./actions";

// Not `IDLE` from validated-action.ts: that module is server-only.
const IDLE: FormState = { status: "idle" };

/**
 * "Resend invitation" for one signer who was invited and has not signed: a plain form post (works
 * before hydration); the answer ("emailed", or why not: 409, 429) is announced in a live region.
 */
export function ResendInvitation({ signingId, signerId, signerName }: { signingId: string; signerId: string; signerName: string }) {
  const [state, action] = useActionState(resendInvitationAction, IDLE);
  return (
    <form action={action} className="mt-2 space-y-2">
      <input type="hidden" name="signingId" value={signingId} />
      <input type="hidden" name="signerId" value={signerId} />
      <SubmitButton variant="secondary" pendingLabel="Sending…" className="px-3 py-1.5">
        Resend invitation<span className="sr-only"> to {signerName}</span>
      </SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}
