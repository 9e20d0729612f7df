import { connect } from "node:net";

export type RawHttpOutcome = {
  /** The status line of the answer ("" when none came). */
  statusLine: string;
  /** Milliseconds from the first byte of the answer until the server closed the connection; null if it did not within the wait. */
  closedAfterMs: number | null;
  /** Milliseconds from the start until the first byte of the answer; null without an answer. */
  answeredAfterMs: number | null;
  /** Body bytes the client managed to write (the kernel's buffers included). */
  sentBytes: number;
};

/**
 * A hostile HTTP/1.1 client on a raw socket: sends `head` (request line and headers, ending with a
 * blank line), then 64 KiB body chunks (as chunked frames when `chunked`) for as long as the server
 * reads them, up to `limitBytes`, and reports when the answer came and whether the server then
 * closed the connection (within `waitMs` overall).
 */
export function sendRaw(
  target: { host: string; port: number },
  head: string,
  options: { chunked: boolean; limitBytes: number; waitMs?: number },
): Promise<RawHttpOutcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(target.port, target.host);
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const frame = options.chunked ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]) : chunk;
    let sentBytes = 0;
    let received = "";
    let answeredAt: number | null = null;
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({
        statusLine: received.split("\r\n")[0] ?? "",
        closedAfterMs: closed && answeredAt !== null ? performance.now() - answeredAt : null,
        answeredAfterMs: answeredAt === null ? null : answeredAt - started,
        sentBytes,
      });
    };
    const timer = setTimeout(() => finish(false), options.waitMs ?? 10_000);
    const pump = () => {
      while (!done && sentBytes < options.limitBytes) {
        sentBytes += chunk.length;
        if (!socket.write(frame)) return void socket.once("drain", pump);
      }
    };
    socket.on("connect", () => {
      socket.write(head);
      pump();
    });
    socket.on("data", (data: Buffer) => {
      received += data.toString("latin1");
      answeredAt ??= performance.now();
    });
    // A reset after the answer is the server closing too.
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
  });
}

export type RawAnswer = { status: number; head: string; body: string };

/**
 * One request written exactly as given (request line, headers and body framed by the caller, as curl
 * frames them), on its own connection: the answer's status, head and the first KiB of its body. The
 * caller sends `Connection: close`; an event stream is cut once its head arrived.
 */
export function exchangeRaw(target: { host: string; port: number }, request: string | Buffer, timeoutMs = 30_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(target.port, target.host);
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = received.toString("latin1");
      const headEnd = text.indexOf("\r\n\r\n");
      const head = headEnd < 0 ? text : text.slice(0, headEnd);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      if (status === 0) return reject(error ?? new Error(`no HTTP answer (got ${JSON.stringify(text.slice(0, 200))})`));
      resolve({ status, head, body: headEnd < 0 ? "" : received.subarray(headEnd + 4, headEnd + 4 + 1024).toString("utf8") });
    };
    const timer = setTimeout(() => settle(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on("connect", () => socket.write(request));
    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data]);
      const text = received.toString("latin1");
      if (text.includes("\r\n\r\n") && /\r\ncontent-type: text\/event-stream/i.test(text.slice(0, text.indexOf("\r\n\r\n")))) settle();
    });
    socket.on("error", (error) => settle(error));
    socket.on("close", () => settle());
  });
}
