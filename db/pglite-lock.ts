import { readFileSync, rmSync, writeFileSync } from "node:fs";

/**
 * PGlite is a single-process database: two processes opening the same directory corrupt it.
 * A pid file next to the data directory turns that mistake into a clear error.
 */
export class PgliteInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The embedded database at ${dataDir} is in use by process ${pid}. PGlite serves one process at a time: ` +
        "stop that process, or set DATABASE_URL to run several processes on PostgreSQL.",
    );
    this.name = "PgliteInUseError";
  }
}

const lockFile = (dataDir: string) => `${dataDir}.lock`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export function pgliteLockHolder(dataDir: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(lockFile(dataDir), "utf8"), 10);
    return Number.isInteger(pid) && pid !== process.pid && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function acquirePgliteLock(dataDir: string): void {
  const holder = pgliteLockHolder(dataDir);
  if (holder !== undefined) throw new PgliteInUseError(dataDir, holder);
  writeFileSync(lockFile(dataDir), String(process.pid));
  process.once("exit", () => releasePgliteLock(dataDir));
}

export function releasePgliteLock(dataDir: string): void {
  try {
    if (readFileSync(lockFile(dataDir), "utf8").trim() === String(process.pid)) rmSync(lockFile(dataDir));
  } catch {
    // Already gone.
  }
}
