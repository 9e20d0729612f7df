// The simulated host's proxy (tests/simhost/freezing-proxy.ts) on its own, in front of two tiny Node
// servers: what it refuses, how it routes, and that freezing really stops an instance's work unless
// the work was handed to the platform's waitUntil (tests/simhost/wait-until.mjs).
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/free-port";
import { BODY_LIMIT_BYTES, postChunked, startFreezingProxy, type FreezingProxy } from "./freezing-proxy";

// An instance: counts ticks of a 20 ms timer; `/handed` answers, then hands 800 ms of ticking work to
// waitUntil; `/` answers with its name and tick count.
const INSTANCE = `
const { createServer } = require("node:http");
let ticks = 0;
setInterval(() => ticks++, 20);
const waitUntil = (p) => globalThis[Symbol.for("@next/request-context")].get().waitUntil(p);
createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (req.url === "/handed") waitUntil(new Promise((r) => setTimeout(r, 800)));
    res.end(JSON.stringify({ name: process.env.NAME, ticks }));
  });
}).listen(Number(process.env.PORT), "127.0.0.1", () => process.stdout.write("listening\\n"));
`;

const PRELOAD = pathToFileURL(join(process.cwd(), "tests", "simhost", "wait-until.mjs")).href;
const children: ChildProcess[] = [];
let proxy: FreezingProxy;

async function startInstance(name: string): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const env = { PATH: process.env.PATH ?? "", NODE_ENV: "test", PORT: String(port), NAME: name } as const;
  const child: ChildProcess = spawn(process.execPath, ["--import", PRELOAD, "-e", INSTANCE], { env, stdio: ["ignore", "pipe", "inherit", "pipe"] });
  children.push(child);
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  return { child, port };
}

function state(child: ChildProcess): string {
  return /^State:\s+(\S)/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]!;
}

async function get(path: string): Promise<{ name: string; ticks: number }> {
  return (await fetch(`${proxy.url}${path}`)).json() as Promise<{ name: string; ticks: number }>;
}

describe("the simulated host's freezing proxy", () => {
  beforeAll(async () => {
    const instances = await Promise.all(["a", "b"].map(startInstance));
    proxy = await startFreezingProxy(
      instances.map(({ child, port }, i) => ({ name: ["a", "b"][i]!, port, pid: child.pid, waitUntilReports: child.stdio[3] as Readable })),
    );
  });

  afterAll(async () => {
    await proxy?.close();
    for (const child of children) child.kill("SIGKILL");
  });

  it("refuses a body over 4.5 MB with 413, declared or streamed, before any instance sees it; takes one just under", async () => {
    const requestsBefore = proxy.states().reduce((sum, s) => sum + s.requests, 0);
    const over = Buffer.alloc(BODY_LIMIT_BYTES + 1, 1);
    expect((await fetch(proxy.url, { method: "POST", body: over })).status).toBe(413);
    const streamed = await postChunked(proxy.url, over);
    expect(streamed.status).toBe(413);
    expect(proxy.refused.map((r) => r.reason)).toEqual(["content-length", "streamed"]);
    expect(proxy.states().reduce((sum, s) => sum + s.requests, 0)).toBe(requestsBefore);
    expect((await fetch(proxy.url, { method: "POST", body: Buffer.alloc(BODY_LIMIT_BYTES, 1) })).status).toBe(200);
  });

  it("sends requests to the instances in turn", async () => {
    const names = [];
    for (let i = 0; i < 4; i++) names.push((await get("/")).name);
    expect(new Set(names)).toEqual(new Set(["a", "b"]));
    expect(names[0]).not.toBe(names[1]);
    expect(names[1]).not.toBe(names[2]);
  });

  it("freezes an idle instance half a second after its answer: its timers stop until the next request thaws it", async () => {
    const first = await get("/");
    const other = await get("/");
    await new Promise((r) => setTimeout(r, 700));
    expect(children.map(state)).toEqual(["T", "T"]);
    await new Promise((r) => setTimeout(r, 1_000));
    // Thawed for this request: about 0.5 s of ticks (25) since its last answer, not 1.7 s (85).
    const again = await get("/");
    expect(again.name).toBe(first.name);
    expect(again.ticks - first.ticks).toBeLessThan(50);
    expect(other.name).not.toBe(first.name);
  });

  it("keeps an instance running while work it handed to waitUntil runs, and freezes it half a second after", async () => {
    await new Promise((r) => setTimeout(r, 700));
    const handed = await get("/handed");
    const child = children[["a", "b"].indexOf(handed.name)]!;
    await new Promise((r) => setTimeout(r, 700));
    expect(state(child)).not.toBe("T");
    await new Promise((r) => setTimeout(r, 900));
    expect(state(child)).toBe("T");
    const events = proxy.events.filter((e) => e.instance === handed.name).map((e) => e.event);
    expect(events.at(-1)).toBe("freeze");
    expect(events.at(-2)).toBe("waitUntil done");
    expect(events.slice(-5, -2).sort()).toEqual(["answer", "request", "waitUntil"]);
  });
});
