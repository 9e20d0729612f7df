// The bench baseline: a bare node:http server answering a small JSON body (shaped like GET /health).
// Started by bench/run.ts as its own process so its RSS can be sampled and it does not share an
// event loop with the load generator. Plain JavaScript, no loader, so its RSS is that of a bare node process.
// Usage: node bench/baseline-server.mjs <port>
import { createServer } from "node:http";

const port = Number(process.argv[2] ?? 0);
const server = createServer((_req, res) => {
  const body = JSON.stringify({ ok: true, service: "baseline", ts: new Date().toISOString() });
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(port, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`baseline listening on ${typeof address === "object" && address ? address.port : port}\n`);
});

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
