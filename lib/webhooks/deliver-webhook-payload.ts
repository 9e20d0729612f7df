import { z } from "zod";
import type { JobDeclaration } from "@/lib/jobs/define-job";

/** The payload of the `deliver-webhook` job: which delivery, and which of its attempts. */
export const DeliverWebhookPayloadSchema = z.object({ deliveryId: z.uuid(), attempt: z.number().int().min(1) });

export const DELIVER_WEBHOOK_JOB = "deliver-webhook";

/** The delivery job as its enqueuers need it (name, schema, attempts); `deliver-webhook-job.ts` adds the handler. */
export const deliverWebhookDeclaration: JobDeclaration<typeof DeliverWebhookPayloadSchema> = {
  name: DELIVER_WEBHOOK_JOB,
  schema: DeliverWebhookPayloadSchema,
  maxAttempts: 3,
};
