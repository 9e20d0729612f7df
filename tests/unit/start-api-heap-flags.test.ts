// npm run start:api runs the bundled core-api with node flags that keep old space close to the live set.
// Without them V8 sizes the heap from the machine's RAM and lets promoted garbage pile up to about four
// times the live heap before a major GC: the core-api reached 200+ MB RSS with a 35 MB live heap. The
// memory effect itself is measured by `npm run bench` (docs/performance.md), not asserted here.
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { nextNodeFlagsOf, nodeFlagsOf, startApiNodeFlags, startNextNodeFlags } from "@/bench/start-api-command";

const REPO = resolve(import.meta.dirname, "../..");

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
});

describe("npm start (the web server, server.mjs) node flags", () => {
  it("reads the flags between node and server.mjs; anything else is refused", () => {
    expect(nextNodeFlagsOf("X=1 node --max-old-space-size=512 server.mjs")).toEqual(["--max-old-space-size=512"]);
    expect(nextNodeFlagsOf("X=1 node server.mjs --port 3000")).toEqual([]);
    expect(() => nextNodeFlagsOf("next start")).toThrow(/does not run "node \[--flags\] server.mjs"/);
  });

  it("package.json's start caps the Next server's old space at 512 MB, and this Node accepts the flags", () => {
    const flags = startNextNodeFlags(REPO);
    expect(flags).toContain("--max-old-space-size=512");
    const run = spawnSync(process.execPath, [...flags, "-e", "console.log(require('v8').getHeapStatistics().heap_size_limit)"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    expect(Number(run.stdout) / 1024 / 1024).toBeLessThan(700);
  });
});
