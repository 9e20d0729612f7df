import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export type StripeRequest = { method: string; path: string; headers: IncomingMessage["headers"]; form: Record<string, string> };

/**
 * A stand-in for api.stripe.com that the real `stripe` SDK talks to (host/port/protocol options):
 * records each request with its form-encoded body flattened (`line_items[0][price]` → value) and
 * answers POST /v1/checkout/sessions and POST /v1/billing_portal/sessions with a session. `failWith` makes it answer that status instead.
 */
export async function startFakeStripe() {
  const requests: StripeRequest[] = [];
  let failWith: number | null = null;
  let sequence = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString("utf8")));
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, form });
      res.setHeader("content-type", "application/json");
      res.setHeader("request-id", `req_fake_${++sequence}`);
      if (failWith) {
        res.statusCode = failWith;
        res.end(JSON.stringify({ error: { type: "api_error", message: "Fake failure" } }));
        return;
      }
      if (req.method === "POST" && req.url === "/v1/checkout/sessions") {
        const id = `cs_test_fake_${sequence}`;
        res.end(
          JSON.stringify({
            id,
            object: "checkout.session",
            mode: form.mode,
            client_reference_id: form.client_reference_id ?? null,
            metadata: {},
            url: `https://checkout.stripe.test/c/pay/${id}`,
          }),
        );
        return;
      }
      if (req.method === "POST" && req.url === "/v1/billing_portal/sessions") {
        const id = `bps_test_fake_${sequence}`;
        res.end(
          JSON.stringify({
            id,
            object: "billing_portal.session",
            customer: form.customer ?? null,
            return_url: form.return_url ?? null,
            url: `https://billing.stripe.test/p/session/${id}`,
          }),
        );
        return;
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${req.url})` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    fail: (status: number | null) => {
      failWith = status;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
