import type { Server } from "node:http";

/**
 * Starts a fake's HTTP server on 127.0.0.1 (`port` 0: a free one) and resolves with the port it got
 * and a `close` that drops open connections first, so a test's teardown never waits on a keep-alive.
 */
export function listenOnLoopback(server: Server, port = 0): Promise<{ port: number; close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      const address = server.address();
      const close = () =>
        new Promise<void>((done) => {
          server.closeAllConnections();
          server.close(() => done());
        });
      resolve({ port: typeof address === "object" && address ? address.port : port, close });
    });
  });
}
