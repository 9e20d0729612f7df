"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { issueAgentLinkAction } from "./actions";

const IDLE: FormState = { status: "idle" };

/**
 * Who gets the settlement agent's link (name and email); posting emails a new link and revokes any
 * older one. What was typed stays on a refusal.
 */
export function AgentLinkForm({ signingId, agentName, agentEmail, reissue }: { signingId: string; agentName: string; agentEmail: string; reissue: boolean }) {
  const [state, formAction] = useActionState(issueAgentLinkAction, IDLE);
  const values = state.status === "error" ? state.values : undefined;
  return (
    <form action={formAction} className="space-y-3">
      <input type="hidden" name="signingId" value={signingId} />
      <div className="grid gap-3 sm:grid-cols-2">
        <InputField id="agentName" name="agentName" label="Settlement agent's name" required maxLength={200} autoComplete="off" defaultValue={values?.agentName ?? agentName} />
        <InputField id="agentEmail" name="agentEmail" type="email" label="Settlement agent's email" required maxLength={320} autoComplete="off" defaultValue={values?.agentEmail ?? agentEmail} />
      </div>
      <SubmitButton variant={reissue ? "secondary" : "primary"} pendingLabel="Sending…">
        {reissue ? "Email a new link" : "Email the link"}
      </SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}
