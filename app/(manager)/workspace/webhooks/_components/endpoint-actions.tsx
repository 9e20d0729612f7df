"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { deleteEndpointAction, rotateSecretAction, sendTestEventAction, setEndpointStatusAction, type SecretResult } from "../actions";
import { SecretOnce } from "./secret-once";

/** Pause or resume, send a test event, rotate the secret (24 h overlap) and delete one endpoint; each result in a live region. */
export function EndpointActions({ endpointId, label, status }: { endpointId: string; label: string; status: "active" | "paused" | "disabled" }) {
  const [statusState, statusAction] = useActionState<FormState, FormData>(setEndpointStatusAction, { status: "idle" });
  const [testState, testAction] = useActionState<FormState, FormData>(sendTestEventAction, { status: "idle" });
  const [rotateState, rotateAction] = useActionState<FormState<SecretResult>, FormData>(rotateSecretAction, { status: "idle" });
  const [deleteState, deleteAction] = useActionState<FormState, FormData>(deleteEndpointAction, { status: "idle" });
  const small = "px-3 py-1.5";
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <form action={statusAction}>
          <input type="hidden" name="endpointId" value={endpointId} />
          <input type="hidden" name="status" value={status === "active" ? "paused" : "active"} />
          <SubmitButton variant="secondary" className={small} pendingLabel="Saving…">
            {status === "active" ? "Pause" : "Resume"}
            <span className="sr-only"> {label}</span>
          </SubmitButton>
        </form>
        {status === "active" ? (
          <form action={testAction}>
            <input type="hidden" name="endpointId" value={endpointId} />
            <SubmitButton variant="secondary" className={small} pendingLabel="Sending…">
              Send test event<span className="sr-only"> to {label}</span>
            </SubmitButton>
          </form>
        ) : null}
        <form action={rotateAction}>
          <input type="hidden" name="endpointId" value={endpointId} />
          <input type="hidden" name="overlapHours" value="24" />
          <SubmitButton variant="secondary" className={small} pendingLabel="Rotating…">
            Rotate secret<span className="sr-only"> of {label}</span>
          </SubmitButton>
        </form>
        <form action={deleteAction}>
          <input type="hidden" name="endpointId" value={endpointId} />
          <SubmitButton variant="ghost" className={small} pendingLabel="Deleting…">
            Delete<span className="sr-only"> {label}</span>
          </SubmitButton>
        </form>
      </div>
      <FormMessage state={statusState} />
      <FormMessage state={testState} />
      <FormMessage state={rotateState} />
      <FormMessage state={deleteState} />
      {rotateState.status === "ok" && rotateState.data ? <SecretOnce secret={rotateState.data.secret} /> : null}
    </div>
  );
}
