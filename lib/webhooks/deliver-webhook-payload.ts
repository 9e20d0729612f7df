import { z } from "zod";

/** The payload of the `deliver-webhook` job: which delivery, and which of its attempts. */
export const DeliverWebhookPayloadSchema = z.object({ deliveryId: z.uuid(), attempt: z.number().int().min(1) });
