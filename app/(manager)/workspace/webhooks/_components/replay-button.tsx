"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/field";
import type { FormState } from "../../../../_lib/validated-action";
import { replayEventAction } from "../actions";

/** Sends one logged event to its endpoint again. */
export function ReplayButton({ endpointId, eventId, eventType }: { endpointId: string; eventId: string; eventType: string }) {
  const [state, action] = useActionState<FormState, FormData>(replayEventAction, { status: "idle" });
  return (
    <form action={action} className="flex items-center gap-2">
      <input type="hidden" name="endpointId" value={endpointId} />
      <input type="hidden" name="eventId" value={eventId} />
      <SubmitButton variant="secondary" className="px-3 py-1.5" pendingLabel="Replaying…">
        Replay<span className="sr-only"> {eventType} {eventId}</span>
      </SubmitButton>
      <FormMessage state={state} />
    </form>
  );
}
