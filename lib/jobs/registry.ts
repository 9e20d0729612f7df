import { sendEmailJob } from "@/lib/email/send-email-job";
import { sendOutreachMessageJob } from "@/lib/outreach/send-outreach-message-job";
import { deliverVaultEventJob } from "@/lib/vault/deliver-vault-event-job";
import { processPaymentEventJob } from "@/lib/payments/process-payment-event-job";
import { processBankEventJob } from "@/lib/bank/process-bank-event-job";
import { processInboundEmailJob } from "@/lib/email/process-inbound-email-job";
import { expireSigningsJob } from "@/lib/signings/expire-signings-job";
import type { JobDefinition } from "./define-job";

export type JobRegistry = ReadonlyMap<string, JobDefinition>;

export function createJobRegistry(definitions: readonly JobDefinition[]): JobRegistry {
  const registry = new Map<string, JobDefinition>();
  for (const definition of definitions) {
    if (registry.has(definition.name)) throw new Error(`Job "${definition.name}" is registered twice.`);
    registry.set(definition.name, definition);
  }
  return registry;
}

let registry: JobRegistry | undefined;

/**
 * Every job the application runs, in one place: the local runner claims only these names and
 * `inngest/functions.ts` creates one Inngest function for each. Add a job by importing its
 * `defineJob(...)` here.
 *
 * Built on first use, not at import: job modules import `enqueueJob`, which imports this module,
 * so a job module loaded first would otherwise be read here before its definition exists (an
 * import cycle that crashed `next start` with "Cannot access … before initialization").
 */
export function getJobRegistry(): JobRegistry {
  registry ??= createJobRegistry([
    sendEmailJob,
    deliverVaultEventJob,
    processPaymentEventJob,
    processBankEventJob,
    processInboundEmailJob,
    sendOutreachMessageJob,
    expireSigningsJob,
  ]);
  return registry;
}

export function getJobDefinitionOrThrow(name: string, from: JobRegistry = getJobRegistry()): JobDefinition {
  const definition = from.get(name);
  if (!definition) throw new Error(`Unknown job "${name}": add it to lib/jobs/registry.ts.`);
  return definition;
}
