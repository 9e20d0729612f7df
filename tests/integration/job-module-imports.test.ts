import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/** Every module that defines a job, plus the worker and the Inngest functions. */
function jobEntryModules(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith("-job.ts") && !dir.endsWith(join("lib", "jobs"))) found.push(relative(process.cwd(), path));
    }
  };
  walk(join(process.cwd(), "lib"));
  return [...found.sort(), "lib/jobs/start-job-worker.ts", "lib/jobs/enqueue-job.ts", "inngest/functions.ts"];
}

function importFirst(module: string): Promise<{ code: number | null; output: string }> {
  const script = `await import("./${module}"); const { getJobRegistry } = await import("./lib/jobs/registry.ts"); console.log("jobs:" + getJobRegistry().size);`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { ...process.env, LOG_LEVEL: "silent" },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code, output }));
  });
}

/**
 * Job modules import enqueueJob, which imports the registry, which imports the job modules: a
 * cycle. Whichever module a process loads first (Next's instrumentation loads the worker) must not
 * read a job definition before it exists — that crashed `next start` once.
 */
describe("job modules load in any order", () => {
  const modules = jobEntryModules();

  it("finds the job modules", () => {
    expect(modules.length).toBeGreaterThanOrEqual(7);
  });

  it.each(modules)("%s loaded first", async (module) => {
    const { code, output } = await importFirst(module);
    expect(output).not.toMatch(/before initialization/);
    expect(code).toBe(0);
    expect(output).toMatch(/jobs:\d+/);
  });
});
