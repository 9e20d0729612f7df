import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptBankToken, encryptBankToken, loadBankTokenKey } from "@/lib/bank/token-crypto";
import { parseEnv } from "@/lib/env";

const key = randomBytes(32);

describe("bank token encryption (AES-256-GCM)", () => {
  it("round-trips, with a fresh IV each time and no clear text in the stored form", () => {
    const a = encryptBankToken("access-sandbox-secret", { key, itemId: "item-1" });
    const b = encryptBankToken("access-sandbox-secret", { key, itemId: "item-1" });
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(a).not.toContain("access-sandbox");
    expect(decryptBankToken(a, { key, itemId: "item-1" })).toBe("access-sandbox-secret");
  });

  it("refuses another key, another item id, or any altered byte", () => {
    const stored = encryptBankToken("access-sandbox-secret", { key, itemId: "item-1" });
    expect(() => decryptBankToken(stored, { key: randomBytes(32), itemId: "item-1" })).toThrow();
    expect(() => decryptBankToken(stored, { key, itemId: "item-2" })).toThrow();
    const parts = stored.split(".");
    const ct = Buffer.from(parts[3]!, "base64url");
    ct[0] = ct[0]! ^ 1;
    expect(() => decryptBankToken([parts[0], parts[1], parts[2], ct.toString("base64url")].join("."), { key, itemId: "item-1" })).toThrow();
    expect(() => decryptBankToken("plain-token", { key, itemId: "item-1" })).toThrow();
  });

  it("loads only a 32-byte base64 (or base64url) key", () => {
    const env = (value: string) => parseEnv({ BANK_TOKEN_ENCRYPTION_KEY: value });
    expect(loadBankTokenKey(env(key.toString("base64")))?.equals(key)).toBe(true);
    expect(loadBankTokenKey(env(key.toString("base64url")))?.equals(key)).toBe(true);
    expect(loadBankTokenKey(env(""))).toBeNull();
    expect(loadBankTokenKey(env("not a key!"))).toBeNull();
    expect(loadBankTokenKey(env(randomBytes(16).toString("base64")))).toBeNull();
    expect(loadBankTokenKey(env(randomBytes(33).toString("base64")))).toBeNull();
  });
});
