/** Placeholder until the job runner lands; replaced by the jobs work. */
export async function startJobWorker(): Promise<() => Promise<void>> {
  return async () => {};
}
