import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { peerAddressFromHeaders, PEER_ADDRESS_HEADER } from "@/lib/net/peer-address";
import { stampPeerAddress } from "@/lib/net/peer-address-stamp.mjs";
import { resolveClientIp } from "@/lib/net/resolve-client-ip";

describe("resolveClientIp: the evidence address from the socket and X-Forwarded-For", () => {
  const cases: [string, { peer: string | null; forwardedFor: string | null; trustedHops: number }, string | null][] = [
    ["no trusted proxy: the socket, whatever the client forged", { peer: "198.51.100.4", forwardedFor: "203.0.113.7", trustedHops: 0 }, "198.51.100.4"],
    ["no trusted proxy and no header", { peer: "198.51.100.4", forwardedFor: null, trustedHops: 0 }, "198.51.100.4"],
    ["IPv4-mapped IPv6 socket address shown as IPv4", { peer: "::ffff:127.0.0.1", forwardedFor: null, trustedHops: 0 }, "127.0.0.1"],
    ["IPv6 socket address kept", { peer: "::1", forwardedFor: "203.0.113.7", trustedHops: 0 }, "::1"],
    ["one proxy (nginx): the rightmost entry, the forged left one ignored", { peer: "127.0.0.1", forwardedFor: "6.6.6.6, 203.0.113.7", trustedHops: 1 }, "203.0.113.7"],
    ["two proxies: the second entry from the right", { peer: "10.0.0.2", forwardedFor: "6.6.6.6, 203.0.113.7, 10.0.0.1", trustedHops: 2 }, "203.0.113.7"],
    ["fewer entries than hops: the furthest a proxy wrote", { peer: "10.0.0.2", forwardedFor: "203.0.113.7", trustedHops: 2 }, "203.0.113.7"],
    ["one proxy but no header: the socket", { peer: "127.0.0.1", forwardedFor: null, trustedHops: 1 }, "127.0.0.1"],
    ["a trusted entry that is not an address falls back to the socket", { peer: "127.0.0.1", forwardedFor: "1.2.3.4, <script>", trustedHops: 1 }, "127.0.0.1"],
    ["no socket and no trust: unknown", { peer: null, forwardedFor: "203.0.113.7", trustedHops: 0 }, null],
  ];
  it.each(cases)("%s", (_name, input, expected) => {
    expect(resolveClientIp(input)).toBe(expected);
  });
});

describe("the peer-address stamp of the web server (server.mjs)", () => {
  it("overwrites a client-sent header with the socket address, and only its own token is believed", async () => {
    const seen: (string | null)[] = [];
    const server = createServer((req, res) => {
      stampPeerAddress(req);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
      seen.push(peerAddressFromHeaders(headers));
      res.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest({ host: "127.0.0.1", port, headers: { [PEER_ADDRESS_HEADER]: "forged 203.0.113.7" } }, (res) => {
        res.resume();
        res.on("end", resolve);
      });
      req.on("error", reject);
      req.end();
    });
    server.close();
    expect(seen).toEqual(["127.0.0.1"]);
    expect(peerAddressFromHeaders(new Headers({ [PEER_ADDRESS_HEADER]: "forged 203.0.113.7" }))).toBeNull();
  });
});
