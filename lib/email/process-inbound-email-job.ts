import { z } from "zod";
import { defineJob } from "@/lib/jobs/define-job";
import { routeInboundEmail } from "./route-inbound-email";

export const PROCESS_INBOUND_EMAIL_JOB = "process-inbound-email";

/** Files a stored inbound email: outreach reply, organization inbox or unrouted (see routeInboundEmail). */
export const processInboundEmailJob = defineJob({
  name: PROCESS_INBOUND_EMAIL_JOB,
  schema: z.object({ inboundEventId: z.string().uuid() }),
  maxAttempts: 10,
  handler: async (ctx, { inboundEventId }) => {
    await ctx.step("route", () => routeInboundEmail(ctx.db, { inboundEventId }));
  },
});
