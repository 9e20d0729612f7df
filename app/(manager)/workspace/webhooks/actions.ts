"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { CreateWebhookEndpointSchema, RotateWebhookSecretSchema } from "@/lib/api/schemas/webhooks";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { deleteWebhookEndpoint } from "@/lib/webhooks/delete-webhook-endpoint";
import { replayWebhookEvents } from "@/lib/webhooks/replay-webhook-events";
import { rotateWebhookSecret } from "@/lib/webhooks/rotate-webhook-secret";
import { sendTestWebhookEvent } from "@/lib/webhooks/send-test-webhook-event";
import { updateWebhookEndpoint } from "@/lib/webhooks/update-webhook-endpoint";
import { validatedAction, type FormState } from "../../../_lib/validated-action";

const PATH = "/workspace/webhooks";
const EndpointId = z.object({ endpointId: z.uuid() });

/** The secret travels back to the form that asked for it, shown there once. */
export type SecretResult = { secret: string };

export const createEndpointAction = validatedAction(
  CreateWebhookEndpointSchema,
  async (input, { db, principal }): Promise<FormState<SecretResult>> => {
    const endpoint = await createWebhookEndpoint(db, { principal, ...input });
    revalidatePath(PATH);
    return { status: "ok", message: "Endpoint added. Copy its signing secret now: it is not shown again.", data: { secret: endpoint.secret } };
  },
  {
    returnTo: PATH,
    toInput: (_formData, fields) => ({
      url: fields.text("url"),
      description: fields.text("description") ?? "",
      eventTypes: fields.all("eventTypes"),
      organizationId: fields.int("organizationId"),
    }),
  },
);

export const setEndpointStatusAction = validatedAction(
  EndpointId.extend({ status: z.enum(["active", "paused"]) }),
  async ({ endpointId, status }, { db, principal }): Promise<FormState> => {
    await updateWebhookEndpoint(db, { principal, endpointId, change: { status } });
    revalidatePath(PATH);
    return { status: "ok", message: status === "paused" ? "Endpoint paused." : "Endpoint resumed." };
  },
  { returnTo: PATH },
);

export const sendTestEventAction = validatedAction(
  EndpointId,
  async ({ endpointId }, { db, principal }): Promise<FormState> => {
    await sendTestWebhookEvent(db, { principal, endpointId });
    revalidatePath(PATH);
    return { status: "ok", message: "Test event sent: see the delivery log." };
  },
  { returnTo: PATH },
);

export const rotateSecretAction = validatedAction(
  EndpointId.extend(RotateWebhookSecretSchema.shape),
  async ({ endpointId, overlapHours }, { db, principal }): Promise<FormState<SecretResult>> => {
    const endpoint = await rotateWebhookSecret(db, { principal, endpointId, overlapHours });
    revalidatePath(PATH);
    return { status: "ok", message: "New secret made. Copy it now: it is not shown again.", data: { secret: endpoint.secret } };
  },
  { returnTo: PATH, toInput: (_formData, fields) => ({ endpointId: fields.text("endpointId"), overlapHours: fields.int("overlapHours") }) },
);

export const deleteEndpointAction = validatedAction(
  EndpointId,
  async ({ endpointId }, { db, principal }): Promise<FormState> => {
    await deleteWebhookEndpoint(db, { principal, endpointId });
    revalidatePath(PATH);
    return { status: "ok", message: "Endpoint deleted." };
  },
  { returnTo: PATH },
);

export const replayEventAction = validatedAction(
  EndpointId.extend({ eventId: z.uuid() }),
  async ({ endpointId, eventId }, { db, principal }): Promise<FormState> => {
    await replayWebhookEvents(db, { principal, endpointId, eventId });
    revalidatePath(PATH);
    return { status: "ok", message: "Event queued again." };
  },
  { returnTo: PATH },
);
