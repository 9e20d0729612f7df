/** The Inngest event that triggers a job's function: `jobs/<name>`. */
export function jobEventName(jobName: string): string {
  return `jobs/${jobName}`;
}

/**
 * Inngest deduplicates events by id (for 24 hours); scoping the caller's key by job name matches the
 * local engine's unique (name, idempotency_key).
 */
export function jobEventId(jobName: string, idempotencyKey: string): string {
  return `${jobName}:${idempotencyKey}`;
}
