// The front of the simulated serverless host (docs/deploy.md, "The simulated host"): what a
// Vercel-style platform does between the browser and the function instances, in a few lines.
//
// - A request body over 4.5 MB is refused with 413 before any instance sees it, whether it declares
//   its length (Content-Length) or streams it (chunked): the platform buffers the body and counts.
// - Requests are spread across the instances in turn (no stickiness: any instance may get any request).
// - An instance is frozen (SIGSTOP) half a second after its last answer, once nothing it handed to the
//   platform's `waitUntil` is still running (after(); reported by tests/simhost/wait-until.mjs), and
//   thawed (SIGCONT) before the next request is forwarded to it. Timers, pollers and any work that
//   was not handed to `waitUntil` stop with it, exactly as on such a host.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Readable } from "node:stream";

/** Vercel's limit on a function's request body: 4.5 MB. */
export const BODY_LIMIT_BYTES = 4.5 * 1000 * 1000;
/** How long an instance stays awake after its last answer (and its last `waitUntil` work). */
export const FREEZE_AFTER_MS = 500;

export type Instance = {
  name: string;
  port: number;
  /** The process to freeze; undefined: never frozen (tests of the proxy alone). */
  pid?: number;
  /** Where the instance reports its `waitUntil` promises ("+" handed over, "-" settled). */
  waitUntilReports?: Readable;
};

export type InstanceState = {
  name: string;
  frozen: boolean;
  inFlight: number;
  waitUntilPending: number;
  freezes: number;
  thaws: number;
  requests: number;
};

export type FreezingProxy = {
  url: string;
  states: () => InstanceState[];
  /** What happened, in order: each request forwarded and answered, each freeze and thaw (ms since the proxy started). */
  events: { at: number; instance: string; event: "request" | "answer" | "freeze" | "thaw" | "waitUntil" | "waitUntil done"; path?: string }[];
  /** Requests refused with 413, and why. */
  refused: { method: string; path: string; reason: "content-length" | "streamed" }[];
  close: () => Promise<void>;
};

/** POSTs `bytes` to `url` as a stream of 1 MiB chunks, without a Content-Length (chunked). */
export function postChunked(url: string, bytes: Uint8Array): Promise<Response> {
  const body = new ReadableStream({
    start(controller) {
      for (let i = 0; i < bytes.byteLength; i += 1 << 20) controller.enqueue(bytes.subarray(i, i + (1 << 20)));
      controller.close();
    },
  });
  return fetch(url, { method: "POST", body, duplex: "half" } as RequestInit);
}

type Tracked = InstanceState & { instance: Instance; quietSince: number; timer?: NodeJS.Timeout };

function signal(pid: number | undefined, name: "SIGSTOP" | "SIGCONT"): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, name);
  } catch {
    // The process is gone: its own exit is reported by whoever started it.
  }
}

function tooLarge(res: ServerResponse): void {
  if (res.headersSent) return void res.destroy();
  // Vercel's answer: FUNCTION_PAYLOAD_TOO_LARGE. The connection closes: the rest of the body is not read.
  res.writeHead(413, { "content-type": "text/plain; charset=utf-8", connection: "close" });
  res.end("Request Entity Too Large\n\nFUNCTION_PAYLOAD_TOO_LARGE\n");
}

export async function startFreezingProxy(instances: Instance[], options: { freezeAfterMs?: number; bodyLimit?: number; port?: number } = {}): Promise<FreezingProxy> {
  const freezeAfterMs = options.freezeAfterMs ?? FREEZE_AFTER_MS;
  const bodyLimit = options.bodyLimit ?? BODY_LIMIT_BYTES;
  const tracked: Tracked[] = instances.map((instance) => ({
    instance,
    name: instance.name,
    frozen: false,
    inFlight: 0,
    waitUntilPending: 0,
    freezes: 0,
    thaws: 0,
    requests: 0,
    quietSince: Date.now(),
  }));
  const refused: FreezingProxy["refused"] = [];
  let turn = 0;
  let closed = false;
  const started = performance.now();
  const events: FreezingProxy["events"] = [];
  const log = (t: Tracked, event: FreezingProxy["events"][number]["event"], path?: string) =>
    events.push({ at: Math.round(performance.now() - started), instance: t.name, event, ...(path ? { path } : {}) });

  const scheduleFreeze = (t: Tracked) => {
    clearTimeout(t.timer);
    if (closed || t.inFlight > 0 || t.waitUntilPending > 0 || t.frozen) return;
    t.timer = setTimeout(() => {
      if (closed || t.inFlight > 0 || t.waitUntilPending > 0 || t.frozen) return;
      if (Date.now() - t.quietSince < freezeAfterMs) return scheduleFreeze(t);
      signal(t.instance.pid, "SIGSTOP");
      t.frozen = true;
      t.freezes += 1;
      log(t, "freeze");
    }, Math.max(0, t.quietSince + freezeAfterMs - Date.now()));
  };

  for (const t of tracked) {
    t.instance.waitUntilReports?.on("data", (chunk: Buffer) => {
      for (const c of chunk.toString()) {
        if (c === "+") {
          t.waitUntilPending += 1;
          log(t, "waitUntil");
        } else if (c === "-") {
          t.waitUntilPending = Math.max(0, t.waitUntilPending - 1);
          log(t, "waitUntil done");
        }
      }
      if (t.waitUntilPending === 0) {
        t.quietSince = Date.now();
        scheduleFreeze(t);
      } else clearTimeout(t.timer);
    });
    scheduleFreeze(t);
  }

  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const t = tracked[turn++ % tracked.length]!;
    clearTimeout(t.timer);
    if (t.frozen) {
      signal(t.instance.pid, "SIGCONT");
      t.frozen = false;
      t.thaws += 1;
      log(t, "thaw");
    }
    t.inFlight += 1;
    t.requests += 1;
    const path = (req.url ?? "/").split("?")[0]!;
    log(t, "request", `${req.method} ${path}`);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      log(t, "answer", `${req.method} ${path}`);
      t.inFlight -= 1;
      t.quietSince = Date.now();
      scheduleFreeze(t);
    };
    const forwardedFor = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const headers = { ...req.headers, "x-forwarded-for": forwardedFor, "content-length": String(body.byteLength) };
    delete headers["transfer-encoding"];
    const upstream = httpRequest({ host: "127.0.0.1", port: t.instance.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
      answer.on("end", finish);
      answer.on("error", finish);
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("the instance did not answer\n");
      finish();
    });
    res.on("close", () => {
      upstream.destroy();
      finish();
    });
    upstream.end(body);
  };

  const server: Server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    const declared = Number(req.headers["content-length"] ?? NaN);
    if (Number.isFinite(declared) && declared > bodyLimit) {
      refused.push({ method: req.method ?? "", path, reason: "content-length" });
      req.resume();
      return tooLarge(res);
    }
    // The platform buffers the body before invoking a function, counting what arrives.
    const chunks: Buffer[] = [];
    let received = 0;
    let over = false;
    req.on("data", (chunk: Buffer) => {
      if (over) return;
      received += chunk.byteLength;
      if (received > bodyLimit) {
        over = true;
        chunks.length = 0;
        refused.push({ method: req.method ?? "", path, reason: "streamed" });
        tooLarge(res);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!over) forward(req, res, Buffer.concat(chunks));
    });
    req.on("error", () => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const address = server.address();
  if (!address || typeof address === "string") throw new Error("the proxy has no port");

  return {
    url: `http://127.0.0.1:${address.port}`,
    refused,
    events,
    states: () => tracked.map(({ name, frozen, inFlight, waitUntilPending, freezes, thaws, requests }) => ({ name, frozen, inFlight, waitUntilPending, freezes, thaws, requests })),
    close: async () => {
      closed = true;
      for (const t of tracked) {
        clearTimeout(t.timer);
        // A frozen process cannot act on the SIGTERM its owner sends next.
        if (t.frozen) signal(t.instance.pid, "SIGCONT");
        t.frozen = false;
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
