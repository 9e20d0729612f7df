// npm run start:api runs the bundled core-api with node flags that keep old space close to the live set.
// Without them V8 sizes the heap from the machine's RAM and lets promoted garbage pile up to about four
// times the live heap before a major GC: the core-api reached 200+ MB RSS with a 35 MB live heap.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeFlagsOf, startApiNodeFlags } from "@/bench/start-api-command";

const REPO = resolve(import.meta.dirname, "../..");

// About 20 MB stays live in a ring; every object outlives a scavenge (so it is promoted) and then dies in
// old space — the shape of requests in flight under load. Prints the peak heapTotal in MB.
const CHURN = `
const ring = new Array(200000);
let peak = 0;
for (let i = 0; i < 20000000; i++) {
  ring[i % ring.length] = { a: i, b: [i, i + 1, i + 2] };
  if (i % 20000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
}
process.stdout.write(String(peak / 1048576));
`;

function peakHeapMb(flags: string[]): number {
  const run = spawnSync(process.execPath, [...flags, "-e", CHURN], { encoding: "utf8", timeout: 60_000 });
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout);
}

describe("nodeFlagsOf", () => {
  it("reads the flags between node and the bundle", () => {
    expect(nodeFlagsOf("REALTIME_URL=${REALTIME_URL-memory:} node --enable-source-maps --max-old-space-size=512 dist/core-api.mjs")).toEqual([
      "--enable-source-maps",
      "--max-old-space-size=512",
    ]);
    expect(nodeFlagsOf("node dist/core-api.mjs")).toEqual([]);
  });

  it("refuses a script that does not run the bundle with node", () => {
    expect(() => nodeFlagsOf("tsx scripts/start-api.ts")).toThrow(/start:api does not run/);
    expect(() => nodeFlagsOf("node --enable-source-maps dist/other.mjs")).toThrow(/start:api does not run/);
  });
});

describe("start:api node flags", () => {
  it("package.json's start:api caps the old space at 512 MB", () => {
    expect(startApiNodeFlags(REPO)).toContain("--max-old-space-size=512");
  });

  it("this Node accepts them", () => {
    const run = spawnSync(process.execPath, [...startApiNodeFlags(REPO), "-e", "0"], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("the V8 heap limit is about 512 MB, not sized from the machine's RAM", () => {
    const script = "process.stdout.write(String(require('node:v8').getHeapStatistics().heap_size_limit / 1048576))";
    const run = spawnSync(process.execPath, [...startApiNodeFlags(REPO), "-e", script], { encoding: "utf8" });
    const limitMb = Number(run.stdout);
    expect(limitMb).toBeGreaterThanOrEqual(512);
    expect(limitMb).toBeLessThan(600); // old space 512 MB + the young generation
  });

  it("promoted garbage peaks well below the heap an unflagged node reaches", () => {
    // Measured on a loaded 2-core box: unflagged 217–275 MB, with the flags 123–143 MB.
    const unflagged = peakHeapMb([]);
    const flagged = peakHeapMb(startApiNodeFlags(REPO));
    expect(flagged).toBeLessThan(unflagged * 0.8);
  }, 90_000);
});
