import { describe, expect, it } from "vitest";
import { refusedAddressKind } from "@/lib/webhooks/webhook-address";
import { validateWebhookUrl } from "@/lib/webhooks/validate-webhook-url";
import { parseEnv } from "@/lib/env";

const refused: Array<[string, string]> = [
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["::1", "loopback"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["0:0:0:0:0:ffff:7f00:0001", "loopback"],
  ["10.0.0.1", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.0.1", "private"],
  ["100.64.0.1", "private"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:192.168.1.1", "private"],
  ["64:ff9b::10.0.0.1", "private"],
  ["fc00::1", "private"],
  ["fd12:3456::1", "private"],
  ["169.254.169.254", "metadata"],
  ["::ffff:169.254.169.254", "metadata"],
  ["fd00:ec2::254", "metadata"],
  ["100.100.100.200", "metadata"],
  ["169.254.1.1", "link-local"],
  ["fe80::1", "link-local"],
  ["0.0.0.0", "reserved"],
  ["::", "reserved"],
  ["224.0.0.1", "reserved"],
  ["ff02::1", "reserved"],
  ["255.255.255.255", "reserved"],
];

describe("refusedAddressKind", () => {
  it.each(refused)("refuses %s as %s", (address, kind) => {
    expect(refusedAddressKind(address, { allowLoopback: false })).toBe(kind);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("lets the public address %s through", (address) => {
    expect(refusedAddressKind(address, { allowLoopback: false })).toBeNull();
  });

  it("lets loopback through only when allowed, and nothing else that is not public", () => {
    expect(refusedAddressKind("127.0.0.1", { allowLoopback: true })).toBeNull();
    expect(refusedAddressKind("::1", { allowLoopback: true })).toBeNull();
    expect(refusedAddressKind("::ffff:127.0.0.1", { allowLoopback: true })).toBeNull();
    expect(refusedAddressKind("10.0.0.1", { allowLoopback: true })).toBe("private");
    expect(refusedAddressKind("169.254.169.254", { allowLoopback: true })).toBe("metadata");
  });
});

describe("validateWebhookUrl", () => {
  const dev = parseEnv({ NODE_ENV: "development", WEBHOOKS_ALLOW_LOOPBACK: "1" });
  const prod = parseEnv({ NODE_ENV: "production", AUTH_SECRET: "x".repeat(40), APP_URL: "http://localhost:3131" });

  it("accepts https anywhere and http only outside production", () => {
    expect(validateWebhookUrl("https://hooks.example.com/x#frag", prod)).toBe("https://hooks.example.com/x");
    expect(() => validateWebhookUrl("http://hooks.example.com/x", prod)).toThrow(/https/);
    expect(validateWebhookUrl("http://hooks.example.com/x", dev)).toBe("http://hooks.example.com/x");
  });

  it("refuses WEBHOOKS_ALLOW_LOOPBACK on a public production deployment; on a local APP_URL it allows plain http to loopback only", () => {
    expect(() =>
      parseEnv({ NODE_ENV: "production", WEBHOOKS_ALLOW_LOOPBACK: "1", AUTH_SECRET: "x".repeat(40), APP_URL: "https://sign.example.com", DATABASE_URL: "postgres://db.example.com/x" }),
    ).toThrow(/WEBHOOKS_ALLOW_LOOPBACK/);
    const localProd = parseEnv({ NODE_ENV: "production", WEBHOOKS_ALLOW_LOOPBACK: "1", AUTH_SECRET: "x".repeat(40), APP_URL: "http://127.0.0.1:3131" });
    expect(validateWebhookUrl("http://127.0.0.1:4131/x", localProd)).toBe("http://127.0.0.1:4131/x");
    expect(() => validateWebhookUrl("http://hooks.example.com/x", localProd)).toThrow(/https/);
    expect(() => validateWebhookUrl("https://10.0.0.7/x", localProd)).toThrow(/private/);
    expect(validateWebhookUrl("http://127.0.0.1:4131/x", dev)).toBe("http://127.0.0.1:4131/x");
    expect(() => validateWebhookUrl("https://127.0.0.1/x", prod)).toThrow(/loopback/);
  });
});
