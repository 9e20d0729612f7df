// The worker's exit codes and graceful shutdown, with real processes and signals.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

describe("npm run jobs:work when it has nothing to run", () => {
  it.each([
    ["Inngest is configured", { INNGEST_EVENT_KEY: "evt-test" }, /Inngest is configured/],
    ["on a serverless host", { SERVERLESS: "1" }, /serverless host/],
  ])("exits 0 with a message when %s (systemd's Restart=on-failure does not loop)", (_label, env, message) => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/jobs-work.ts"], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", ...env },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(message);
  });
});

describe("graceful shutdown", () => {
  it("finishes the job in hand on SIGTERM, then exits 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csig-graceful-"));
    const marker = join(dir, "done");
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "tests/fakes/graceful-worker.ts", marker], {
        env: { PATH: process.env.PATH, NODE_ENV: "production", LOG_LEVEL: "silent" },
        stdio: ["ignore", "pipe", "inherit"],
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("job in hand")) resolve();
        });
        child.once("exit", (code) => reject(new Error(`exited ${code} before taking the job`)));
      });
      child.kill("SIGTERM");
      const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
      expect(code).toBe(0);
      expect(existsSync(marker) && readFileSync(marker, "utf8")).toBe("finished");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
