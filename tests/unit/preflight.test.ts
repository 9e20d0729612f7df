import { execFile } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import forge from "node-forge";
import { afterAll, describe, expect, it } from "vitest";
import { runPreflight, type PreflightFinding } from "@/lib/deploy/preflight";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "preflight-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NOW = new Date("2026-11-26T12:00:00Z");
const DAY = 24 * 3600_000;

function forgeKey() {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return forge.pki.privateKeyFromPem(privateKey.export({ type: "pkcs1", format: "pem" }).toString());
}

/** A PKCS#12 whose certificate is issued by a separate CA (or by itself), valid between the given dates. */
function makeP12(options: { password: string; notBefore: Date; notAfter: Date; selfSigned?: boolean }): Buffer {
  const key = forgeKey();
  const issuerKey = options.selfSigned ? key : forgeKey();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = "01" + randomBytes(8).toString("hex");
  cert.validity.notBefore = options.notBefore;
  cert.validity.notAfter = options.notAfter;
  cert.setSubject([{ name: "commonName", value: "Example Lending seal" }]);
  cert.setIssuer([{ name: "commonName", value: options.selfSigned ? "Example Lending seal" : "Example CA" }]);
  cert.sign(issuerKey, forge.md.sha256.create());
  const asn1 = forge.pkcs12.toPkcs12Asn1(key, [cert], options.password, { algorithm: "aes256" });
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), "binary");
}

const goodP12 = join(dir, "seal.p12");
writeFileSync(goodP12, makeP12({ password: "pw-1", notBefore: new Date(NOW.getTime() - DAY), notAfter: new Date(NOW.getTime() + 400 * DAY) }));

/** A complete, safe production environment for one machine. */
const good: Record<string, string> = {
  NODE_ENV: "production",
  APP_URL: "https://sign.example.com",
  DATABASE_URL: "postgres://app:s3cr3t@db.internal:5432/signing?sslmode=require",
  AUTH_SECRET: "Zx8vQ2m1Lr7tY4pK0aW9sD3fG6hJ5kB1cN8eR2uI7oP=",
  SEALING_P12: goodP12,
  SEALING_P12_PASSWORD: "pw-1",
  TRUSTED_PROXY_HOPS: "1",
  REALTIME_URL: "redis://cache.internal:6379",
  SMTP_URL: "smtps://mailer:pw@smtp.example.com:465",
  EMAIL_FROM: "Example Lending <signing@example.com>",
  INBOUND_EMAIL_DOMAIN: "inbound.example.com",
  EMAIL_WEBHOOK_TOKEN: "9f2c61d0a7b84e35c1d2e3f4a5b6c7d8",
  S3_BUCKET: "signing-files",
};

function errorsFor(findings: PreflightFinding[]): string[] {
  return findings.filter((f) => f.level === "error").map((f) => f.variable);
}

function find(findings: PreflightFinding[], variable: string): PreflightFinding[] {
  return findings.filter((f) => f.variable === variable);
}

describe("preflight", () => {
  it("passes a complete production environment", () => {
    const report = runPreflight(good, { now: NOW });
    expect(errorsFor(report.findings)).toEqual([]);
    expect(report.errors).toBe(0);
    expect(find(report.findings, "SEALING_P12")[0]).toMatchObject({ level: "ok" });
    expect(find(report.findings, "SEALING_P12")[0]!.message).toContain("Example Lending seal");
  });

  it("names every development default left in an empty environment", () => {
    const report = runPreflight({}, { now: NOW });
    expect(new Set(errorsFor(report.findings))).toEqual(
      new Set(["APP_URL", "DATABASE_URL", "AUTH_SECRET", "SEALING_P12", "SMTP_URL", "EMAIL_FROM", "EMAIL_WEBHOOK_TOKEN"]),
    );
    expect(find(report.findings, "S3_BUCKET")[0]?.level).toBe("warn");
    expect(find(report.findings, "TRUSTED_PROXY_HOPS")[0]?.level).toBe("warn");
  });

  it("reports what the app itself would refuse at start, by variable", () => {
    const report = runPreflight({ ...good, AUTH_SECRET: "short", DATABASE_URL: "mysql://x" }, { now: NOW });
    const auth = find(report.findings, "AUTH_SECRET");
    expect(auth).toHaveLength(1);
    expect(auth[0]).toMatchObject({ level: "error" });
    expect(auth[0]!.message).toMatch(/at least 32 characters.*refuses to start/);
    expect(find(report.findings, "DATABASE_URL")[0]).toMatchObject({ level: "error" });
  });

  it("refuses a placeholder AUTH_SECRET, a local or plain-http APP_URL, and a NODE_ENV other than production", () => {
    expect(find(runPreflight({ ...good, AUTH_SECRET: "a".repeat(40) }, { now: NOW }).findings, "AUTH_SECRET")[0]?.level).toBe("error");
    expect(find(runPreflight({ ...good, AUTH_SECRET: "change-me-change-me-change-me-12345" }, { now: NOW }).findings, "AUTH_SECRET")[0]?.level).toBe("error");
    expect(find(runPreflight({ ...good, APP_URL: "http://sign.example.com" }, { now: NOW }).findings, "APP_URL")[0]?.message).toMatch(/not https/);
    expect(find(runPreflight({ ...good, APP_URL: "https://localhost:3000" }, { now: NOW }).findings, "APP_URL")[0]?.message).toMatch(/local address/);
    expect(errorsFor(runPreflight({ ...good, NODE_ENV: "development" }, { now: NOW }).findings)).toEqual(["NODE_ENV"]);
    expect(errorsFor(runPreflight({ ...good, WEBHOOKS_ALLOW_LOOPBACK: "1" }, { now: NOW }).findings)).toEqual(["WEBHOOKS_ALLOW_LOOPBACK"]);
  });

  it("opens the sealing certificate: wrong password, missing file, expired, self-signed, expiring soon", () => {
    const at = (env: Record<string, string>) => find(runPreflight({ ...good, ...env }, { now: NOW }).findings, "SEALING_P12").concat(
      find(runPreflight({ ...good, ...env }, { now: NOW }).findings, "SEALING_P12/SEALING_P12_PASSWORD"),
    );
    expect(at({ SEALING_P12_PASSWORD: "wrong" })[0]).toMatchObject({ level: "error", variable: "SEALING_P12/SEALING_P12_PASSWORD" });
    expect(at({ SEALING_P12: join(dir, "missing.p12") })[0]?.message).toMatch(/cannot read .*ENOENT/);

    const expired = makeP12({ password: "", notBefore: new Date(NOW.getTime() - 400 * DAY), notAfter: new Date(NOW.getTime() - DAY) });
    expect(at({ SEALING_P12: `base64:${expired.toString("base64")}`, SEALING_P12_PASSWORD: "" })[0]?.message).toMatch(/expired on 2026-11-25/);

    const self = makeP12({ password: "", notBefore: new Date(NOW.getTime() - DAY), notAfter: new Date(NOW.getTime() + 400 * DAY), selfSigned: true });
    expect(at({ SEALING_P12: `base64:${self.toString("base64")}`, SEALING_P12_PASSWORD: "" })[0]).toMatchObject({ level: "warn" });

    const soon = makeP12({ password: "", notBefore: new Date(NOW.getTime() - DAY), notAfter: new Date(NOW.getTime() + 10 * DAY) });
    expect(at({ SEALING_P12: `base64:${soon.toString("base64")}`, SEALING_P12_PASSWORD: "" })[0]).toMatchObject({ level: "warn" });
  });

  it("warns when no time-stamp authority is configured; reports the one that is, and half a credential", () => {
    const unset = find(runPreflight(good, { now: NOW }).findings, "TSA_URL");
    expect(unset).toHaveLength(1);
    expect(unset[0]).toMatchObject({ level: "warn" });
    expect(unset[0]!.message).toMatch(/no trusted timestamp/);
    const set = find(runPreflight({ ...good, TSA_URL: "https://tsa.example.net/tsr", TSA_USERNAME: "u", TSA_PASSWORD: "p" }, { now: NOW }).findings, "TSA_URL");
    expect(set[0]).toMatchObject({ level: "ok" });
    expect(set[0]!.message).toBe("time-stamp authority tsa.example.net (basic authentication)");
    expect(errorsFor(runPreflight({ ...good, TSA_URL: "https://tsa.example.net/tsr", TSA_USERNAME: "u" }, { now: NOW }).findings)).toEqual(["TSA_PASSWORD"]);
  });

  it("needs Redis for real time once there are several web instances", () => {
    const one = runPreflight({ ...good, REALTIME_URL: "memory:" }, { now: NOW, instances: 1 });
    expect(find(one.findings, "REALTIME_URL")[0]?.level).toBe("warn");
    const three = runPreflight({ ...good, REALTIME_URL: "memory:" }, { now: NOW, instances: 3 });
    expect(find(three.findings, "REALTIME_URL")[0]?.level).toBe("error");
  });

  it("needs Redis when REALTIME_URL is unset and there are several web instances", () => {
    const { REALTIME_URL: _unset, ...withoutRedis } = good;
    expect(find(runPreflight(withoutRedis, { now: NOW, instances: 1 }).findings, "REALTIME_URL")[0]?.level).toBe("warn");
    expect(find(runPreflight(withoutRedis, { now: NOW, instances: 2 }).findings, "REALTIME_URL")[0]?.level).toBe("error");
  });

  describe("--serverless", () => {
    const serverless: Record<string, string> = { ...good, SERVERLESS: "1", INNGEST_EVENT_KEY: "evt-key", INNGEST_SIGNING_KEY: "signkey-prod-abc" };
    const build = "npm run db:migrate && npm run build";

    it("passes a complete serverless environment with a build command that migrates", () => {
      expect(errorsFor(runPreflight(serverless, { now: NOW, serverless: true, buildCommand: build }).findings)).toEqual([]);
    });

    it("requires Inngest keys, Redis, object storage, SERVERLESS and the migrate step", () => {
      const { INNGEST_EVENT_KEY: _e, INNGEST_SIGNING_KEY: _s, REALTIME_URL: _r, S3_BUCKET: _b, SERVERLESS: _x, ...bare } = serverless;
      const report = runPreflight(bare, { now: NOW, serverless: true, buildCommand: "npm run build" });
      expect(new Set(errorsFor(report.findings))).toEqual(
        new Set(["INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "REALTIME_URL", "S3_BUCKET", "SERVERLESS", "(build command)"]),
      );
      expect(find(report.findings, "(build command)")[0]!.message).toContain("npm run db:migrate");
      // The same environment is fine for one machine: the local runner, memory: real time and database files work there.
      const { INNGEST_EVENT_KEY: _e2, INNGEST_SIGNING_KEY: _s2, SERVERLESS: _x2, ...oneMachine } = serverless;
      expect(errorsFor(runPreflight({ ...oneMachine, REALTIME_URL: "memory:" }, { now: NOW }).findings)).toEqual([]);
    });

    it("accepts VERCEL for SERVERLESS and warns when the build command is unknown", () => {
      const { SERVERLESS: _x, ...onVercel } = serverless;
      const report = runPreflight({ ...onVercel, VERCEL: "1" }, { now: NOW, serverless: true });
      expect(errorsFor(report.findings)).toEqual([]);
      expect(find(report.findings, "(build command)")[0]?.level).toBe("warn");
    });

    it("reads vercel.json's buildCommand from the command line", async () => {
      const envFile = join(dir, "serverless.env");
      writeFileSync(envFile, Object.entries(serverless).map(([k, val]) => `${k}=${val}`).join("\n"));
      const { stdout } = await run(process.execPath, ["--import", "tsx", resolve("scripts/preflight.ts"), "--env-file", envFile, "--serverless"], {
        env: { PATH: process.env.PATH, NODE_ENV: "production" },
      }).catch((error: { stdout: string }) => error);
      expect(stdout).toContain("ok    (build command): npm run db:migrate && npm run build");
    });
  });

  it("checks the Inngest keys, and refuses the dev server", () => {
    expect(errorsFor(runPreflight({ ...good, INNGEST_EVENT_KEY: "evt" }, { now: NOW }).findings)).toEqual(["INNGEST_SIGNING_KEY"]);
    expect(errorsFor(runPreflight({ ...good, INNGEST_EVENT_KEY: "evt", INNGEST_SIGNING_KEY: "signkey-prod-1" }, { now: NOW }).findings)).toEqual([]);
    expect(errorsFor(runPreflight({ ...good, INNGEST_DEV: "1" }, { now: NOW }).findings)).toContain("INNGEST_DEV");
  });

  it("checks the providers that are switched on, and test-fake overrides", () => {
    const stripe = runPreflight({ ...good, STRIPE_SECRET_KEY: "sk_live_x" }, { now: NOW });
    expect(errorsFor(stripe.findings)).toEqual(["STRIPE_WEBHOOK_SECRET"]);
    const plaid = runPreflight({ ...good, PLAID_CLIENT_ID: "c", PLAID_SECRET: "s", PLAID_ENV: "production", BANK_TOKEN_ENCRYPTION_KEY: "dG9vLXNob3J0" }, { now: NOW });
    expect(errorsFor(plaid.findings)).toEqual(["BANK_TOKEN_ENCRYPTION_KEY"]);
    const plaidOk = runPreflight(
      { ...good, PLAID_CLIENT_ID: "c", PLAID_SECRET: "s", PLAID_ENV: "production", BANK_TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64") },
      { now: NOW },
    );
    expect(errorsFor(plaidOk.findings)).toEqual([]);
    // Text messages: all three Twilio variables or none, an E.164 sender, no API override.
    expect(errorsFor(runPreflight({ ...good, TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "t" }, { now: NOW }).findings)).toEqual(["TWILIO_FROM"]);
    expect(errorsFor(runPreflight({ ...good, TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "t", TWILIO_FROM: "5125550100" }, { now: NOW }).findings)).toEqual(["TWILIO_FROM"]);
    expect(errorsFor(runPreflight({ ...good, TWILIO_ACCOUNT_SID: "AC1", TWILIO_AUTH_TOKEN: "t", TWILIO_FROM: "+15125550100" }, { now: NOW }).findings)).toEqual([]);
    expect(errorsFor(runPreflight({ ...good, TWILIO_API_BASE_URL: "http://127.0.0.1:9" }, { now: NOW }).findings)).toEqual(["TWILIO_API_BASE_URL"]);
    expect(errorsFor(runPreflight({ ...good, STRIPE_API_BASE_URL: "http://127.0.0.1:12111" }, { now: NOW }).findings)).toEqual(["STRIPE_API_BASE_URL"]);
    const clerk = runPreflight({ ...good, NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: "pk_test_abc", CLERK_SECRET_KEY: "sk_test_abc" }, { now: NOW });
    expect(clerk.findings.filter((f) => f.level === "warn").map((f) => f.variable)).toEqual(
      expect.arrayContaining(["CLERK_SECRET_KEY/NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY", "CLERK_JWT_KEY", "CLERK_WEBHOOK_SIGNING_SECRET"]),
    );
  });

  it("never prints a secret's value", () => {
    const report = runPreflight({ ...good, STRIPE_SECRET_KEY: "sk_live_TOPSECRET", STRIPE_WEBHOOK_SECRET: "whsec_TOPSECRET" }, { now: NOW });
    const text = JSON.stringify(report);
    for (const secret of [good.AUTH_SECRET!, "s3cr3t", "TOPSECRET", good.EMAIL_WEBHOOK_TOKEN!, "mailer:pw"]) expect(text).not.toContain(secret);
  });

  it("npm run preflight exits 1 on an unsafe env file and 0 on a safe one", async () => {
    const root = resolve(import.meta.dirname, "../..");
    const tsx = join(root, "node_modules/.bin/tsx");
    const bad = join(dir, "bad.env");
    writeFileSync(bad, "APP_URL=http://localhost:3000\nAUTH_SECRET=\n");
    const failed = await run(tsx, ["scripts/preflight.ts", "--env-file", bad], { cwd: root }).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toMatch(/^ERROR AUTH_SECRET: is not set/m);
    expect(failed?.stdout).toMatch(/not ready for production/);

    const safe = join(dir, "good.env");
    writeFileSync(safe, Object.entries(good).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join("\n"));
    const passed = await run(tsx, ["scripts/preflight.ts", "--env-file", safe], { cwd: root });
    expect(passed.stdout).toMatch(/preflight: no errors/);
  }, 60_000);
});
