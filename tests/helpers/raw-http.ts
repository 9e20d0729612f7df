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
