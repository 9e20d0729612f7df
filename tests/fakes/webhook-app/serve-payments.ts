// Test-only: the real payments webhook route (app/api/webhooks/payments/route.ts) on a plain node:http
// server, plus this process's job worker, so a test can run "the app" as a child process and SIGKILL it.
//
//   node --import tsx tests/fakes/webhook-app/serve-payments.ts
//
// Environment: DATABASE_URL (PostgreSQL), STRIPE_WEBHOOK_SECRET (+ STRIPE_PRICE_*), AUTH_SECRET,
// JOBS_POLL_INTERVAL_MS, LOG_LEVEL; PORT (default 0 = any free port). Once it accepts requests it
// prints one line `ready <port> <pid>` on stdout.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { closeDb } from "@/lib/db/process-db";
import { POST } from "@/app/api/webhooks/payments/route";
import { prepareDatabase } from "@/lib/boot";
import { startJobWorker } from "@/lib/job-runner/start-job-worker";

const PATH = "/api/webhooks/payments";

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function toHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  if (url.pathname !== PATH || req.method !== "POST") {
    res.writeHead(404).end();
    return;
  }
  const body = await readBody(req);
  const response = await POST(new Request(url, { method: "POST", headers: toHeaders(req), body: new Uint8Array(body) }));
  const payload = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(payload);
}

await prepareDatabase();
const stopWorker = await startJobWorker();

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => {
    if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
    res.end(error instanceof Error ? error.message : String(error));
  });
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(`ready ${port} ${process.pid}\n`);
});

async function shutdown(): Promise<void> {
  server.close();
  await stopWorker();
  await closeDb();
  process.exit(0);
}
process.once("SIGINT", () => void shutdown());
process.once("SIGTERM", () => void shutdown());
