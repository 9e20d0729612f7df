import { readFileSync } from "node:fs";
import { parseEnv as nodeParseEnv } from "node:util";
import { describe, expect, it } from "vitest";
import { databasePoolMax, InvalidEnvironmentError, isServerless, parseEnv } from "@/lib/env";

describe("parseEnv", () => {
  it("runs on embedded defaults with an empty environment", () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PGLITE_DIR: ".data/pglite", APP_URL: "http://localhost:3000", API_PORT: 4000, ACCESS_TOKEN_TTL_SECONDS: 900 });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REALTIME_URL).toBeUndefined();
    expect(env.AUTH_SECRET).toBeUndefined();
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", SMTP_URL: " " }).DATABASE_URL).toBeUndefined();
  });

  it("treats an empty number, enum or defaulted value as unset (NAME= in an env file)", () => {
    const env = parseEnv({ DATABASE_POOL_MAX: "", API_PORT: "", ACCESS_TOKEN_TTL_SECONDS: "", LOG_LEVEL: "", APP_URL: "", PLAID_ENV: "" });
    expect(env).toMatchObject({ API_PORT: 4000, ACCESS_TOKEN_TTL_SECONDS: 900, LOG_LEVEL: "info", APP_URL: "http://localhost:3000", PLAID_ENV: "sandbox" });
    expect(env.DATABASE_POOL_MAX).toBeUndefined();
  });

  it("accepts .env.example as it is (cp .env.example .env must start)", () => {
    const example = nodeParseEnv(readFileSync(new URL("../../.env.example", import.meta.url), "utf8"));
    expect(() => parseEnv(example)).not.toThrow();
  });

  it.each([
    ["DATABASE_URL", { DATABASE_URL: "mysql://localhost/db" }],
    ["DATABASE_URL", { DATABASE_URL: "not a url" }],
    ["APP_URL", { APP_URL: "ftp://example.com" }],
    ["API_PORT", { API_PORT: "70000" }],
    ["AUTH_SECRET", { AUTH_SECRET: "short" }],
    ["REALTIME_URL", { REALTIME_URL: "kafka://x" }],
    ["PLAID_ENV", { PLAID_ENV: "development" }],
    ["PLAID_SECRET", { PLAID_CLIENT_ID: "id-only" }],
    ["CLERK_JWT_KEY", { CLERK_JWT_KEY: "not-a-pem" }],
    ["CLERK_WEBHOOK_SIGNING_SECRET", { CLERK_WEBHOOK_SIGNING_SECRET: "abc" }],
    ["SMTP_URL", { SMTP_URL: "http://mail" }],
    ["ACCESS_TOKEN_TTL_SECONDS", { ACCESS_TOKEN_TTL_SECONDS: "-5" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
  ])("names %s when it is invalid", (name, source) => {
    expect(() => parseEnv(source)).toThrow(InvalidEnvironmentError);
    expect(() => parseEnv(source)).toThrow(new RegExp(`^Invalid environment configuration:\\n(.*\\n)*${name}: `, "m"));
  });

  it("requires SEALING_P12 in production on a public address, not on localhost", () => {
    const publicProd = {
      NODE_ENV: "production",
      APP_URL: "https://sign.example.com",
      AUTH_SECRET: "x".repeat(40),
      DATABASE_URL: "postgres://app@db.internal/signing",
    };
    expect(() => parseEnv(publicProd)).toThrow(/SEALING_P12: is required in production/);
    expect(parseEnv({ ...publicProd, SEALING_P12: "/run/secrets/seal.p12" }).SEALING_P12).toBe("/run/secrets/seal.p12");
    expect(parseEnv({ NODE_ENV: "production", APP_URL: "http://localhost:3000" }).SEALING_P12).toBeUndefined();
  });

  it("refuses the embedded PGlite database in production on a public address, not on localhost nor in development", () => {
    const publicProd = { NODE_ENV: "production", APP_URL: "https://sign.example.com", AUTH_SECRET: "x".repeat(40), SEALING_P12: "/run/seal.p12" };
    expect(() => parseEnv(publicProd)).toThrow(/DATABASE_URL: is required in production when APP_URL \(https:\/\/sign\.example\.com\) is not a local address: the embedded PGlite/);
    expect(parseEnv({ ...publicProd, DATABASE_URL: "postgres://app@db.internal/signing" }).DATABASE_URL).toBe("postgres://app@db.internal/signing");
    expect(parseEnv({ NODE_ENV: "production", APP_URL: "http://localhost:3000" }).DATABASE_URL).toBeUndefined();
    expect(parseEnv({ NODE_ENV: "development", APP_URL: "https://sign.example.com" }).DATABASE_URL).toBeUndefined();
  });

  it("detects a serverless host from SERVERLESS or the host's own variables", () => {
    expect(isServerless(parseEnv({}))).toBe(false);
    expect(isServerless(parseEnv({ SERVERLESS: "1" }))).toBe(true);
    expect(isServerless(parseEnv({ VERCEL: "1" }))).toBe(true);
    expect(isServerless(parseEnv({ AWS_LAMBDA_FUNCTION_NAME: "signing-web" }))).toBe(true);
    expect(isServerless(parseEnv({ SERVERLESS: "0" }))).toBe(false);
  });

  it("requires AUTH_SECRET in production on a public address, not on localhost", () => {
    expect(() => parseEnv({ NODE_ENV: "production", APP_URL: "https://sign.example.com" })).toThrow(/AUTH_SECRET: is required/);
    expect(parseEnv({ NODE_ENV: "production", APP_URL: "http://localhost:3000" }).AUTH_SECRET).toBeUndefined();
  });

  it("collects STRIPE_PRICE_<TIER> and rejects unknown tiers", () => {
    expect(parseEnv({ STRIPE_PRICE_PRO: "price_123", STRIPE_PRICE_STARTER: " " }).STRIPE_PRICES).toEqual({ pro: "price_123" });
    expect(() => parseEnv({ STRIPE_PRICE_GOLD: "price_9" })).toThrow(/STRIPE_PRICE_GOLD: unknown plan tier/);
  });

  it("sizes the PostgreSQL pool from DATABASE_POOL_MAX or the host's cores", () => {
    expect(databasePoolMax(parseEnv({ DATABASE_POOL_MAX: "3" }))).toBe(3);
    const derived = databasePoolMax(parseEnv({}));
    expect(derived).toBeGreaterThanOrEqual(2);
    expect(derived).toBeLessThanOrEqual(10);
    expect(() => parseEnv({ DATABASE_POOL_MAX: "0" })).toThrow(/DATABASE_POOL_MAX: /);
  });

  it("splits authorized parties", () => {
    expect(parseEnv({ CLERK_AUTHORIZED_PARTIES: "https://a.example, https://b.example" }).CLERK_AUTHORIZED_PARTIES).toEqual([
      "https://a.example",
      "https://b.example",
    ]);
  });
});
