import { and, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { memberships, organizations, users, webhookAttempts, webhookDeliveries, webhookEndpoints, webhookEvents } from "@/db/schema";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { getEnv } from "@/lib/env";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { deliverWebhookDeclaration } from "./deliver-webhook-payload";
import { decryptWebhookSecret } from "./secret-crypto";
import { sendWebhookRequest, type WebhookResponse } from "./send-webhook-request";
import { signWebhook } from "./sign-webhook";
import { webhookLoopbackAllowed } from "./validate-webhook-url";
import { WEBHOOK_DISABLE_AFTER_MS, webhookRetryDelayMs } from "./webhook-backoff";

export type DeliverWebhookOutcome = "succeeded" | "retrying" | "failed" | "skipped";

const isSuccess = (code: number | null) => code !== null && code >= 200 && code < 300;

/** The body every receiver gets: the Standard Webhooks shape (`type`, `timestamp`, `data`) plus the event id. */
export function webhookBody(event: { id: string; type: string; data: unknown; createdAt: Date }): string {
  return JSON.stringify({ id: event.id, type: event.type, timestamp: event.createdAt.toISOString(), data: event.data });
}

/** The secrets that sign now: the current one, and the previous one until its overlap ends. */
export function signingSecrets(endpoint: typeof webhookEndpoints.$inferSelect, now: Date): string[] {
  const secrets = [decryptWebhookSecret(endpoint.secretCiphertext, endpoint.id)];
  if (endpoint.previousSecretCiphertext && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(decryptWebhookSecret(endpoint.previousSecretCiphertext, endpoint.id));
  }
  return secrets;
}

/**
 * Attempt `attempt` of one delivery: signs the event, POSTs it (lib/webhooks/send-webhook-request.ts)
 * and logs the attempt. A 2xx ends the delivery; 410 ends it and disables the endpoint; anything else
 * schedules the next attempt as a new job (`runAt` after the backoff), until the attempts run out.
 * An endpoint that has failed for WEBHOOK_DISABLE_AFTER_MS without a success is disabled and its
 * organization's admins are emailed. Running an attempt twice (a retried job) sends nothing more:
 * the attempt is claimed by a conditional update first.
 */
export async function deliverWebhook(
  db: Db,
  options: { deliveryId: string; attempt: number; now?: () => Date; random?: () => number },
): Promise<DeliverWebhookOutcome> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: webhookEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, options.deliveryId));
  if (!row || row.delivery.status !== "pending") return "skipped";
  const { delivery, endpoint, event } = row;
  if (endpoint.status !== "active") {
    await db
      .update(webhookDeliveries)
      .set({ status: "cancelled", nextAttemptAt: null, lastError: `The endpoint is ${endpoint.status}.` })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, "pending")));
    return "skipped";
  }
  // Claim this attempt: a second run of the same job finds it taken once its outcome is logged; a run
  // that crashed between the claim and the log is taken over (the receiver may then get it twice).
  const claimed = await db
    .update(webhookDeliveries)
    .set({ attempts: options.attempt })
    .where(
      and(
        eq(webhookDeliveries.id, delivery.id),
        eq(webhookDeliveries.status, "pending"),
        or(
          eq(webhookDeliveries.attempts, options.attempt - 1),
          and(
            eq(webhookDeliveries.attempts, options.attempt),
            sql`not exists (select 1 from ${webhookAttempts} where ${webhookAttempts.deliveryId} = ${delivery.id} and ${webhookAttempts.attempt} = ${options.attempt})`,
          ),
        ),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  if (claimed.length === 0) return "skipped";

  const now = options.now ?? (() => new Date());
  const sentAt = now();
  const body = webhookBody(event);
  const env = getEnv();
  let response: WebhookResponse;
  try {
    const headers = signWebhook({ id: event.id, timestamp: sentAt, body, secrets: signingSecrets(endpoint, sentAt) });
    response = await sendWebhookRequest({
      url: endpoint.url,
      body,
      headers: { ...headers, "Content-Type": "application/json", "User-Agent": "ClosingSigning-Webhooks/1" },
      allowLoopback: webhookLoopbackAllowed(env),
    });
  } catch {
    response = { statusCode: null, error: "The endpoint's signing secret could not be read; rotate it.", body: null, durationMs: 0 };
  }
  const error = response.error ?? (isSuccess(response.statusCode) ? null : `HTTP ${response.statusCode}`);
  await db.insert(webhookAttempts).values({
    deliveryId: delivery.id,
    attempt: options.attempt,
    statusCode: response.statusCode,
    error,
    durationMs: response.durationMs,
    responseBody: response.body,
  });

  if (isSuccess(response.statusCode)) {
    await db.transaction(async (tx) => {
      await tx.update(webhookDeliveries).set({ status: "succeeded", nextAttemptAt: null, lastStatusCode: response.statusCode, lastError: null }).where(eq(webhookDeliveries.id, delivery.id));
      await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id));
    });
    return "succeeded";
  }

  const failedAt = now();
  const failingSince = endpoint.failingSince ?? failedAt;
  const gone = response.statusCode === 410;
  const failingTooLong = failedAt.getTime() - failingSince.getTime() >= WEBHOOK_DISABLE_AFTER_MS;
  const delay = gone || failingTooLong ? null : webhookRetryDelayMs(options.attempt, options.random);
  await db.transaction(async (tx) => {
    await tx
      .update(webhookDeliveries)
      .set({
        status: delay === null ? "failed" : "pending",
        nextAttemptAt: delay === null ? null : new Date(failedAt.getTime() + delay),
        lastStatusCode: response.statusCode,
        lastError: error,
      })
      .where(eq(webhookDeliveries.id, delivery.id));
    if (gone || failingTooLong) {
      const reason = gone
        ? "The endpoint answered 410 Gone."
        : `Every delivery failed for ${Math.round(WEBHOOK_DISABLE_AFTER_MS / 86_400_000)} days (last: ${error}).`;
      const disabled = await tx
        .update(webhookEndpoints)
        .set({ status: "disabled", disabledReason: reason, failingSince })
        .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.status, "active")))
        .returning({ id: webhookEndpoints.id });
      if (disabled.length > 0) await emailAdmins(tx, { endpoint, reason });
    } else if (!endpoint.failingSince) {
      await tx.update(webhookEndpoints).set({ failingSince }).where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.failingSince)));
    }
    if (delay !== null) {
      await enqueueJob(tx, deliverWebhookDeclaration, { deliveryId: delivery.id, attempt: options.attempt + 1 }, {
        idempotencyKey: `${delivery.id}:${options.attempt + 1}`,
        runAt: new Date(failedAt.getTime() + delay),
      });
    }
  });
  return delay === null ? "failed" : "retrying";
}

/** Tells the organization's admins that an endpoint was disabled, and why (through the email outbox). */
async function emailAdmins(tx: Db, options: { endpoint: typeof webhookEndpoints.$inferSelect; reason: string }): Promise<void> {
  const { endpoint } = options;
  const admins = await tx
    .select({ email: users.email, organization: organizations.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.organizationId, endpoint.organizationId), eq(memberships.role, "org_admin"), isNull(memberships.companyId)));
  const appUrl = getEnv().APP_URL;
  for (const admin of admins) {
    await enqueueJob(
      tx,
      sendEmailDeclaration,
      {
        to: admin.email,
        subject: `Webhook endpoint disabled: ${endpoint.description || new URL(endpoint.url).host}`,
        text:
          `A webhook endpoint of ${admin.organization} was disabled and receives no more events.\n\n` +
          `Endpoint: ${endpoint.url}\nReason: ${options.reason}\n\n` +
          `Fix the receiver, enable the endpoint again and replay what it missed: ${appUrl}/workspace/webhooks\n`,
      },
      { idempotencyKey: `webhook-disabled:${endpoint.id}:${admin.email}:${endpoint.updatedAt.getTime()}` },
    );
  }
}
