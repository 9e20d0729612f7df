import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardRequest } from "@/lib/net/early-body-guard.mjs";
import { sendRaw } from "@/tests/helpers/raw-http";

// The guard on a real HTTP server and real sockets. The handler stands in for Next with proxy.ts in
// front of a route: it buffers the whole body before answering (what made the route's own cap come
// too late), then answers 413 when it got more than the route's cap — a little later, as Next does
// (an answer written in the body's 'end' event itself hid that the guard's early end of the body
// made Node destroy the socket before Next could answer).

const KiB = 1024;
const MiB = 1024 * KiB;
const CAP = 8 * KiB;

let server: Server;
let port: number;
const seen: { path: string; bytes: number }[] = [];

/**
 * As a route's readCappedBody does: read through the body's async iterator and stop past the cap.
 * Leaving the loop early destroys the request, and Node's stream destroyer first sets
 * `request.socket = null` (the guard lost the socket there, so Node reset the connection right after
 * the 413 and a client busy sending never read it).
 */
async function readAndStopPastCap(request: IncomingMessage): Promise<number> {
  let bytes = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > CAP) break;
  }
  return bytes;
}

beforeAll(async () => {
  const caps = [{ path: /^\/api\//, maxBytes: CAP }];
  // As server.mjs does: the guard first, then the handler standing in for Next.
  server = createServer((request, response) => {
    if (!guardRequest(request, response, caps)) return;
    if (request.url === "/api/cancelling") {
      void readAndStopPastCap(request).then((bytes) => setTimeout(() => {
        seen.push({ path: request.url ?? "", bytes });
        response.writeHead(bytes > CAP ? 413 : 200, { "content-type": "application/json" });
        response.end(JSON.stringify({ bytes }));
      }, 50));
      return;
    }
    let bytes = 0;
    request.on("data", (chunk: Buffer) => (bytes += chunk.length));
    request.on("end", () => setTimeout(() => {
      seen.push({ path: request.url ?? "", bytes });
      if (bytes > CAP) {
        response.writeHead(413, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: `Request body exceeds ${CAP} bytes.` }));
      } else {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ bytes }));
      }
    }, 50));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const send = (head: string, options: { chunked: boolean; limitBytes: number }) => sendRaw({ host: "127.0.0.1", port }, head, options);

describe("early body guard (lib/net/early-body-guard.mjs)", () => {
  it("answers a declared Content-Length over the cap with 413 at once, without the handler, and closes", async () => {
    seen.length = 0;
    const outcome = await send(`POST /api/auth/callback/credentials HTTP/1.1\r\nHost: x\r\nContent-Length: ${200 * MiB}\r\n\r\n`, {
      chunked: false,
      limitBytes: 200 * MiB,
    });
    expect(outcome.statusLine).toBe("HTTP/1.1 413 Payload Too Large");
    expect(outcome.closedAfterMs).not.toBeNull();
    expect(outcome.closedAfterMs!).toBeLessThan(3000);
    expect(outcome.sentBytes).toBeLessThan(64 * MiB);
    expect(seen).toEqual([]);
  });

  it("ends an endless chunked body at the cap: the buffering handler sees at most cap + 128 KiB, answers 413, and the connection closes", async () => {
    seen.length = 0;
    const outcome = await send("POST /api/auth/signout HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", {
      chunked: true,
      limitBytes: 200 * MiB,
    });
    expect(outcome.statusLine).toBe("HTTP/1.1 413 Payload Too Large");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.bytes).toBeGreaterThan(CAP);
    expect(seen[0]!.bytes).toBeLessThanOrEqual(CAP + 128 * KiB);
    expect(outcome.closedAfterMs).not.toBeNull();
    expect(outcome.closedAfterMs!).toBeLessThan(3000);
    expect(outcome.sentBytes).toBeLessThan(64 * MiB);
  });

  it("keeps the connection open after the 413 of a route that stopped reading the body (half-closed, cut after the grace period), so the client reads the 413", async () => {
    seen.length = 0;
    const outcome = await send("POST /api/cancelling HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", {
      chunked: true,
      limitBytes: 200 * MiB,
    });
    expect(outcome.statusLine).toBe("HTTP/1.1 413 Payload Too Large");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.bytes).toBeGreaterThan(CAP);
    // Reset at once after the answer (within a few ms), a client still writing gets EPIPE before it
    // has read the 413; held for the grace period (1 s), it has read the answer and the end of the stream.
    expect(outcome.closedAfterMs).not.toBeNull();
    expect(outcome.closedAfterMs!).toBeGreaterThan(500);
    expect(outcome.closedAfterMs!).toBeLessThan(3000);
    expect(outcome.sentBytes).toBeLessThan(64 * MiB);
  });

  it("leaves bodies under the cap and paths without a cap alone, on a kept-alive connection", async () => {
    seen.length = 0;
    const small = await fetch(`http://127.0.0.1:${port}/api/auth/callback/credentials`, { method: "POST", body: "a".repeat(CAP) });
    expect(small.status).toBe(200);
    expect(await small.json()).toEqual({ bytes: CAP });
    const elsewhere = await fetch(`http://127.0.0.1:${port}/v1/anything`, { method: "POST", body: "a".repeat(CAP + 1) });
    expect(elsewhere.status).toBe(413);
    expect(elsewhere.headers.get("connection")).toBe("close");
    expect(seen.map((s) => s.bytes)).toEqual([CAP, CAP + 1]);
  });
});
