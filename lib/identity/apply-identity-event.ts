import type { z } from "zod";
import type { Db } from "@/db/client";
import { BadRequest } from "@/lib/errors";
import { ClerkDeletedUserSchema, ClerkUserSchema, type IdentityWebhookEvent } from "./clerk-events";
import { deactivateClerkUser } from "./deactivate-clerk-user";
import { syncClerkUser } from "./sync-clerk-user";

export type ApplyIdentityEventOptions = { event: IdentityWebhookEvent };

/**
 * Applies one verified Clerk event to the users table. Types other than the three user events are
 * stored by the caller and reported as `ignored`. A payload that does not have the expected shape
 * is a BadRequest: redelivering the same bytes cannot succeed.
 */
export async function applyIdentityEvent(db: Db, options: ApplyIdentityEventOptions): Promise<"processed" | "ignored"> {
  const { event } = options;
  switch (event.type) {
    case "user.created":
    case "user.updated":
      await syncClerkUser(db, { user: parseData(ClerkUserSchema, event) });
      return "processed";
    case "user.deleted": {
      const { id } = parseData(ClerkDeletedUserSchema, event);
      if (!id) return "ignored";
      return (await deactivateClerkUser(db, { clerkUserId: id })) ? "processed" : "ignored";
    }
    default:
      return "ignored";
  }
}

function parseData<T extends z.ZodType>(schema: T, event: IdentityWebhookEvent): z.infer<T> {
  const result = schema.safeParse(event.data);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw BadRequest(`Invalid ${event.type} payload: ${issue ? `${issue.path.join(".")} ${issue.message}` : "unreadable"}.`);
  }
  return result.data;
}
