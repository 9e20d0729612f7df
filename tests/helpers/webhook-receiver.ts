import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

export type ReceivedWebhook = { headers: IncomingHttpHeaders; body: string; path: string };

/**
 * A real HTTP receiver on 127.0.0.1 for outbound webhook tests: records every request and answers
 * with whatever `respond` says (status and body), 200 by default.
 */
export async function startWebhookReceiver(port = 0): Promise<{
  url: string;
  port: number;
  received: ReceivedWebhook[];
  respond: (status: number, body?: string) => void;
  close: () => Promise<void>;
}> {
  const received: ReceivedWebhook[] = [];
  let answer = { status: 200, body: "ok" };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), path: req.url ?? "/" });
      res.writeHead(answer.status, { "content-type": "text/plain" });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address();
  const actual = typeof address === "object" && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${actual}/hooks`,
    port: actual,
    received,
    respond: (status, body = "") => (answer = { status, body }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
