import { z } from "zod";

/**
 * The parts of Clerk's webhook payloads that identity sync reads (Clerk `UserJSON`,
 * `DeletedObjectJSON`). Unknown fields pass through untouched; the full payload is kept in
 * `inbound_events.payload`.
 */
export const ClerkEventEnvelopeSchema = z.object({
  type: z.string().min(1),
  data: z.unknown(),
});

export const ClerkEmailAddressSchema = z.object({
  id: z.string().min(1),
  email_address: z.string().trim().min(3),
  verification: z.object({ status: z.string() }).nullish(),
});

export const ClerkUserSchema = z.object({
  id: z.string().min(1),
  email_addresses: z.array(ClerkEmailAddressSchema).default([]),
  primary_email_address_id: z.string().nullish(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
});

export const ClerkDeletedUserSchema = z.object({
  id: z.string().min(1).nullish(),
  deleted: z.boolean().optional(),
});

export type ClerkEventEnvelope = z.infer<typeof ClerkEventEnvelopeSchema>;
export type ClerkUser = z.infer<typeof ClerkUserSchema>;
export type ClerkDeletedUser = z.infer<typeof ClerkDeletedUserSchema>;

/** A verified delivery: the Svix message id (unique per event, stable across retries) and its body. */
export type IdentityWebhookEvent = { id: string; type: string; data: unknown; payload: unknown };
