import { processScanbackScanJob } from "@/lib/closings/process-scanback-scan-job";
import { processBankEventJob } from "@/lib/bank/process-bank-event-job";
import { processInboundEmailJob } from "@/lib/email/process-inbound-email-job";
import { sendEmailJob } from "@/lib/job-runner/send-email-job";
import { sendOutreachMessageJob } from "@/lib/outreach/send-outreach-message-job";
import { processPaymentEventJob } from "@/lib/payments/process-payment-event-job";
import { sealPackageJob } from "@/lib/seals/seal-package-job";
import { expireSigningsJob } from "@/lib/signings/expire-signings-job";
import { processSmsEventJob } from "@/lib/sms/process-sms-event-job";
import { sendSignerSmsJob } from "@/lib/signer-access/send-signer-sms-job";
import { sweepExpiredUploadsJob } from "@/lib/uploads/sweep-expired-uploads-job";
import { deliverVaultEventJob } from "@/lib/vault/deliver-vault-event-job";
import { deliverWebhookJob } from "@/lib/webhooks/deliver-webhook-job";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";

/**
 * Every job the application runs. The local runner claims only these names and runs their
 * schedules; `inngest/functions.ts` creates one Inngest function for each (and a cron function for
 * each schedule). Only the runners and `inngest/` import this module: job modules and domain code
 * hand the definition itself to `enqueueJob`, so nothing here can be read before it is defined.
 */
export const jobRegistry = createJobRegistry([
  sendEmailJob,
  sendSignerSmsJob,
  processSmsEventJob,
  deliverVaultEventJob,
  deliverWebhookJob,
  processPaymentEventJob,
  processBankEventJob,
  processInboundEmailJob,
  sendOutreachMessageJob,
  expireSigningsJob,
  sealPackageJob,
  sweepExpiredUploadsJob,
  processScanbackScanJob,
]);
