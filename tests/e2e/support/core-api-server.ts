import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../helpers/free-port";

const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));

export type CoreApiServer = { baseUrl: string; log: () => string; stop: () => Promise<void> };

/** dist/core-api.mjs is part of `npm run build`; rebuilt here when missing or older than the Next build (esbuild, seconds). */
async function ensureApiBundle(): Promise<void> {
  const bundle = join(ROOT, "dist/core-api.mjs");
  const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  const buildId = join(ROOT, ".next/BUILD_ID");
  if (built > 0 && existsSync(buildId) && built >= statSync(buildId).mtimeMs) return;
  await new Promise<void>((done, fail) => {
    const child = spawn(process.execPath, ["scripts/build-api.mjs"], { cwd: ROOT, stdio: "inherit" });
    child.on("exit", (code) => (code === 0 ? done() : fail(new Error(`build:api exited ${code}`))));
  });
}

/**
 * The standalone core-api as `npm run start:api` runs it (the bundle under plain node, with its heap
 * flag), on a free port, with `env` on top of this process's environment (DATABASE_URL, AUTH_SECRET…).
 */
export async function startCoreApiServer(env: Record<string, string>): Promise<CoreApiServer> {
  await ensureApiBundle();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["--enable-source-maps", "--max-old-space-size=512", "dist/core-api.mjs"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "warn", ...env, API_PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) })).ok) return { baseUrl, log: () => output, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`core-api did not start:\n${output.slice(-3000)}`);
}
