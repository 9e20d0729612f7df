import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { jobRegistry } from "@/lib/job-runner/registry";

const ROOT = process.cwd();

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

function isJobDefinition(value: unknown): value is JobDefinition {
  const candidate = value as Partial<JobDefinition> | null;
  return typeof candidate?.name === "string" && typeof candidate.handler === "function" && typeof candidate.maxAttempts === "number" && !!candidate.schema;
}

describe("the job registry", () => {
  it("holds every job defined under lib/, so none is enqueued and then never claimed", async () => {
    const defined: JobDefinition[] = [];
    for (const file of sourceFiles("lib").filter((path) => path.endsWith("-job.ts"))) {
      const exported = (await import(/* @vite-ignore */ join(ROOT, file))) as Record<string, unknown>;
      defined.push(...Object.values(exported).filter(isJobDefinition));
    }
    expect(defined.map((job) => job.name).sort()).toEqual(
      ["deliver-vault-event", "deliver-webhook", "expire-signings", "process-bank-event", "process-inbound-email", "process-payment-event", "process-scanback-scan", "process-sms-event", "seal-package", "send-email", "send-outreach-message", "send-signer-sms", "sweep-expired-uploads"],
    );
    for (const job of defined) expect(jobRegistry.get(job.name)).toBe(job);
    expect(jobRegistry.size).toBe(defined.length);
  });

  it("is imported only by the runners and inngest/: job modules and domain code take the definition itself", () => {
    const importers = ["app", "lib", "inngest", "db", "scripts", "components"]
      .flatMap((dir) => { try { return sourceFiles(dir); } catch { return []; } })
      .filter((file) => {
        const text = readFileSync(join(ROOT, file), "utf8");
        return /from\s+["']@\/lib\/job-runner\/registry["']/.test(text) || (file.startsWith(join("lib", "job-runner")) && /from\s+["']\.\/registry["']/.test(text));
      })
      .map((file) => relative(ROOT, join(ROOT, file)))
      .sort();
    // The runners: the poller, the worker, the after-commit dispatch (which relays or runs a job as soon
    // as its transaction commits) and Inngest's functions.
    expect(importers).toEqual(["inngest/functions.ts", "lib/job-runner/dispatch-after-commit.ts", "lib/job-runner/run-due-jobs.ts", "lib/job-runner/start-job-worker.ts"]);
  });
});
