import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import forge from "node-forge";
import { InvalidEnvironmentError, parseEnv } from "@/lib/env";
import { revocationServicesOf } from "@/lib/seals/revocation-data";

/**
 * `npm run preflight`: reads a production environment (the variables `next start`, `npm run start:api`
 * and `npm run jobs:work` will see) and says, variable by variable, what is missing or unsafe.
 * Pure: takes the variables and a clock, reads only the sealing certificate file it names.
 */

export type PreflightLevel = "error" | "warn" | "ok";

export type PreflightFinding = {
  level: PreflightLevel;
  /** The variable concerned (or several, joined by "/"). */
  variable: string;
  message: string;
};

export type PreflightReport = { findings: PreflightFinding[]; errors: number; warnings: number };

type Source = Record<string, string | undefined>;

const DAY_MS = 24 * 3600_000;

function value(source: Source, name: string): string | undefined {
  const raw = source[name]?.trim();
  return raw ? raw : undefined;
}

function isLocalHost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname === "127.0.0.1" ||
    hostname === "[::1]" ||
    hostname === "::1" ||
    hostname.endsWith(".localhost") ||
    hostname.endsWith(".local")
  );
}

function parseUrl(raw: string | undefined): URL | undefined {
  if (!raw) return undefined;
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** A secret that is long enough by count but made of very few distinct characters (`aaaa…`, `changeme…`). */
function looksGuessable(secret: string): boolean {
  return new Set(secret).size < 10 || /change.?me|example|secret|password|placeholder/i.test(secret);
}

function readP12(raw: string): Buffer {
  if (raw.startsWith("base64:")) return Buffer.from(raw.slice("base64:".length).replace(/\s+/g, ""), "base64");
  return readFileSync(resolve(raw));
}

/** Opens the PKCS#12 the way sealing does and reports what is wrong with it, or its validity dates. */
function checkSealingCertificate(raw: string, password: string, now: Date, ltv?: string): PreflightFinding {
  const variable = "SEALING_P12";
  let bytes: Buffer;
  try {
    bytes = readP12(raw);
  } catch (error) {
    return { level: "error", variable, message: `cannot read ${raw} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(bytes.toString("binary"))), false, password);
  } catch {
    return { level: "error", variable: "SEALING_P12/SEALING_P12_PASSWORD", message: "is not a PKCS#12 file, or SEALING_P12_PASSWORD does not open it" };
  }
  const bags = (type: string): forge.pkcs12.Bag[] => p12.getBags({ bagType: type })[type] ?? [];
  const key = [...bags(forge.pki.oids.pkcs8ShroudedKeyBag!), ...bags(forge.pki.oids.keyBag!)].find((b) => b.key)?.key as
    | forge.pki.rsa.PrivateKey
    | undefined;
  if (!key) return { level: "error", variable, message: "holds no private key (only RSA keys are supported)" };
  const certificate = bags(forge.pki.oids.certBag!)
    .map((b) => b.cert)
    .find((c) => {
      const pub = c?.publicKey as forge.pki.rsa.PublicKey | undefined;
      return pub?.n?.compareTo(key.n) === 0 && pub.e?.compareTo(key.e) === 0;
    });
  if (!certificate) return { level: "error", variable, message: "holds no certificate matching its private key" };
  const cn = String(certificate.subject.getField("CN")?.value ?? "?");
  const { notBefore, notAfter } = certificate.validity;
  const until = notAfter.toISOString().slice(0, 10);
  if (notAfter.getTime() <= now.getTime()) return { level: "error", variable, message: `certificate "${cn}" expired on ${until}` };
  if (notBefore.getTime() > now.getTime()) return { level: "error", variable, message: `certificate "${cn}" is not valid before ${notBefore.toISOString().slice(0, 10)}` };
  const selfSigned = certificate.isIssuer(certificate);
  if (selfSigned) return { level: "warn", variable, message: `certificate "${cn}" is self-signed: PDF readers will not trust the seal` };
  if (notAfter.getTime() - now.getTime() < 30 * DAY_MS) return { level: "warn", variable, message: `certificate "${cn}" expires on ${until}: renew it` };
  const toDer = (c: forge.pki.Certificate) => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(c)).getBytes(), "binary");
  const services = ltv === "off" ? null : revocationServicesOf(toDer(certificate));
  if (services && services.ocsp.length + services.crl.length > 0) {
    const hosts = [...new Set([...services.ocsp, ...services.crl].map((u) => new URL(u).host))].join(", ");
    const issuerInP12 = bags(forge.pki.oids.certBag!).some((b) => b.cert && b.cert !== certificate && certificate.isIssuer(b.cert));
    if (!issuerInP12 && services.caIssuers.length === 0) {
      return { level: "warn", variable, message: `certificate "${cn}" names revocation services (${hosts}) but SEALING_P12 holds no issuer certificate: seals would wait for one (add the chain, or set SEAL_LTV=off)` };
    }
    return { level: "ok", variable, message: `certificate "${cn}", valid until ${until}; seals embed its revocation data from ${hosts} (PAdES-B-LT: the app needs outbound HTTP there)` };
  }
  return { level: "ok", variable, message: `certificate "${cn}", valid until ${until}` };
}

function checkBase64Key32(raw: string): boolean {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(raw)) return false;
  return Buffer.from(raw.replace(/-/g, "+").replace(/_/g, "/"), "base64").length === 32;
}

export type PreflightOptions = {
  /** Clock for certificate validity (tests). */
  now?: Date;
  /** How many web instances will run: 1 (one machine) or more (behind a load balancer). */
  instances?: number;
  /**
   * A serverless host (`--serverless`): no process lives between requests, so jobs need Inngest,
   * real time needs Redis, files need object storage, and the build command must migrate.
   */
  serverless?: boolean;
  /** The deployment's build command (vercel.json's `buildCommand`), when the caller knows it. */
  buildCommand?: string;
};

export function runPreflight(source: Source, options: PreflightOptions = {}): PreflightReport {
  const now = options.now ?? new Date();
  const serverless = options.serverless ?? false;
  // A serverless host runs as many instances as it likes.
  const instances = serverless ? Math.max(2, options.instances ?? 2) : (options.instances ?? 1);
  const findings: PreflightFinding[] = [];
  const add = (level: PreflightLevel, variable: string, message: string) => findings.push({ level, variable, message });
  const v = (name: string) => value(source, name);

  // 1. What the app itself refuses at start, as it would see it in production.
  const nodeEnv = v("NODE_ENV");
  if (nodeEnv && nodeEnv !== "production") add("error", "NODE_ENV", `is "${nodeEnv}": production servers run with NODE_ENV=production (or unset: next start sets it)`);
  try {
    parseEnv({ ...source, NODE_ENV: "production" });
  } catch (error) {
    if (!(error instanceof InvalidEnvironmentError)) throw error;
    for (const line of error.message.split("\n").slice(1)) {
      const at = line.indexOf(": ");
      add("error", at > 0 ? line.slice(0, at) : "(environment)", `${at > 0 ? line.slice(at + 2) : line} (the app refuses to start)`);
    }
  }
  const refused = new Set(findings.map((f) => f.variable));
  const check = (name: string, fn: (raw: string | undefined) => void) => {
    if (!refused.has(name)) fn(v(name));
  };

  // 2. Core.
  check("APP_URL", (raw) => {
    const url = parseUrl(raw);
    if (!url) add("error", "APP_URL", "is not set: links in emails, Plaid's webhook and Clerk's authorized party would point to http://localhost:3000");
    else if (isLocalHost(url.hostname)) add("error", "APP_URL", `is a local address (${url.origin}): set the public https origin`);
    else if (url.protocol !== "https:") add("error", "APP_URL", `is not https (${url.origin}): session cookies and signing links must travel over TLS`);
    else add("ok", "APP_URL", url.origin);
  });
  check("DATABASE_URL", (raw) => {
    const url = parseUrl(raw);
    if (!url) {
      add("error", "DATABASE_URL", "is not set: the app would use the embedded PGlite database, which one process owns and nothing backs up");
      return;
    }
    if (!url.password && !isLocalHost(url.hostname) && !url.searchParams.has("host")) add("warn", "DATABASE_URL", "has no password for a remote server");
    const ssl = url.searchParams.get("sslmode") ?? url.searchParams.get("ssl");
    if (!isLocalHost(url.hostname) && !ssl) add("warn", "DATABASE_URL", `connects to ${url.hostname} without sslmode=require: add it unless the network is private`);
    else add("ok", "DATABASE_URL", `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ""}${url.pathname}`);
  });
  check("AUTH_SECRET", (raw) => {
    if (!raw) add("error", "AUTH_SECRET", "is not set: generate one with `openssl rand -base64 32` and give every instance the same value");
    else if (looksGuessable(raw)) add("error", "AUTH_SECRET", "looks like a placeholder: generate one with `openssl rand -base64 32`");
    else add("ok", "AUTH_SECRET", `set (${raw.length} characters)`);
  });
  check("SEALING_P12", (raw) => {
    if (!raw) add("error", "SEALING_P12", "is not set: sealed PDFs would be signed with a self-signed development certificate");
    else findings.push(checkSealingCertificate(raw, source.SEALING_P12_PASSWORD ?? "", now, source.SEAL_LTV));
  });
  check("TSA_URL", (raw) => {
    const url = parseUrl(raw);
    if (!raw) add("warn", "TSA_URL", "is not set: seals carry no trusted timestamp (PAdES-B-T), so once the sealing certificate expires or is replaced a validator cannot tell a seal was made while it was valid");
    else if (!url) add("error", "TSA_URL", "is not a URL");
    else add("ok", "TSA_URL", `time-stamp authority ${url.host}${v("TSA_USERNAME") ? " (basic authentication)" : ""}`);
  });
  check("TRUSTED_PROXY_HOPS", (raw) => {
    const hops = Number(raw ?? "0");
    if (hops === 0) add("warn", "TRUSTED_PROXY_HOPS", "is 0: right when clients connect to the app directly; behind nginx, a load balancer or a Vercel-style host every evidence IP would be the proxy's (set the number of proxies that append to X-Forwarded-For)");
    else add("ok", "TRUSTED_PROXY_HOPS", `${hops}: make sure only those proxies can reach the app`);
  });
  check("LOG_LEVEL", (raw) => {
    if (raw === "debug") add("warn", "LOG_LEVEL", "is debug: noisy in production (info is the default)");
  });
  check("PGLITE_DIR", (raw) => {
    if (raw && !v("DATABASE_URL")) add("warn", "PGLITE_DIR", "is set but only used without DATABASE_URL");
  });

  // 3. Real time and jobs.
  check("REALTIME_URL", (raw) => {
    if (!raw && instances > 1) add("error", "REALTIME_URL", `is not set with ${serverless ? "a serverless host (many instances)" : `${instances} web instances`}: comments need redis:// to reach every instance`);
    else if (!raw) add("warn", "REALTIME_URL", "is not set: `npm start` and `npm run start:api` then use memory: (one process); a bare `next start` answers 503 to comments");
    else if (raw === "memory:" && instances > 1) add("error", "REALTIME_URL", `is memory: with ${instances} web instances: a comment posted on one never reaches streams on another (use redis://)`);
    else if (raw === "memory:") add("warn", "REALTIME_URL", "is memory: fine for one web process; several instances need redis://");
    else add("ok", "REALTIME_URL", `Redis at ${parseUrl(raw)?.host ?? "?"}`);
  });
  const inngest = Boolean(v("INNGEST_EVENT_KEY") || v("INNGEST_BASE_URL") || ["1", "true"].includes(v("INNGEST_DEV") ?? ""));
  if (["1", "true"].includes(v("INNGEST_DEV") ?? "")) add("error", "INNGEST_DEV", "is on: the Inngest dev server does not check signatures; unset it in production");
  if (inngest) {
    if (!v("INNGEST_EVENT_KEY")) add("error", "INNGEST_EVENT_KEY", "is not set while Inngest is configured: events cannot be sent to Inngest Cloud");
    else add("ok", "INNGEST_EVENT_KEY", "set");
    if (!v("INNGEST_SIGNING_KEY")) add("error", "INNGEST_SIGNING_KEY", "is not set: /api/inngest must verify that runs come from Inngest (signkey-prod-…)");
    else add("ok", "INNGEST_SIGNING_KEY", "set");
  } else if (serverless) {
    add("error", "INNGEST_EVENT_KEY", "is not set: a serverless host has no process to run the local job runner, so no email, seal or reminder would ever go out (set INNGEST_EVENT_KEY and INNGEST_SIGNING_KEY)");
    if (!v("INNGEST_SIGNING_KEY")) add("error", "INNGEST_SIGNING_KEY", "is not set: /api/inngest must verify that runs come from Inngest (signkey-prod-…)");
  } else {
    if (v("INNGEST_SIGNING_KEY")) add("warn", "INNGEST_SIGNING_KEY", "is set without INNGEST_EVENT_KEY: jobs run on the local runner, Inngest is not used");
    add(
      instances > 1 ? "warn" : "ok",
      "INNGEST_EVENT_KEY",
      "not set: jobs run on the local database runner in every server process (needs a long-running process; a serverless host needs Inngest)",
    );
  }

  // 4. Identity.
  const clerkPk = v("NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY");
  const clerkSk = v("CLERK_SECRET_KEY");
  if (clerkPk || clerkSk || v("CLERK_JWT_KEY")) {
    if (clerkPk?.startsWith("pk_test_") || clerkSk?.startsWith("sk_test_")) add("warn", "CLERK_SECRET_KEY/NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY", "are Clerk development keys (pk_test_/sk_test_): use the production instance's keys");
    if (!v("CLERK_JWT_KEY")) add("warn", "CLERK_JWT_KEY", "is not set: every cold start fetches Clerk's key set over the network");
    if (!v("CLERK_WEBHOOK_SIGNING_SECRET")) add("warn", "CLERK_WEBHOOK_SIGNING_SECRET", "is not set: /api/webhooks/identity refuses Clerk's events, so profile changes and deletions are not applied");
    if (clerkPk && clerkSk) add("ok", "NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY", "browsers sign in with Clerk");
  } else {
    add("ok", "CLERK_SECRET_KEY", "not set: the local identity provider (email and password) signs users in");
  }
  check("CLERK_API_URL", (raw) => {
    if (raw && parseUrl(raw)?.origin !== "https://api.clerk.com") add("warn", "CLERK_API_URL", `points to ${raw}, not Clerk's API (a test fake?)`);
  });

  // 5. Email.
  check("SMTP_URL", (raw) => {
    if (!raw) add("error", "SMTP_URL", "is not set: every email (signing invitations, codes) goes to the development outbox and nobody receives it");
    else add("ok", "SMTP_URL", `${parseUrl(raw)?.protocol ?? ""}//${parseUrl(raw)?.host ?? "?"}`);
  });
  check("EMAIL_FROM", (raw) => {
    if (!raw || /@localhost\b|\.localhost\b/.test(raw)) add("error", "EMAIL_FROM", "is the development default (…@localhost): set a sender on your domain");
  });
  check("INBOUND_EMAIL_DOMAIN", (raw) => {
    if (!raw || raw.endsWith("localhost")) add("warn", "INBOUND_EMAIL_DOMAIN", "is the development default: replies to emails cannot reach the app");
  });
  check("EMAIL_WEBHOOK_TOKEN", (raw) => {
    if (!raw) add("error", "EMAIL_WEBHOOK_TOKEN", "is not set: anyone can post inbound email to /api/webhooks/email");
    else if (raw.length < 24 || looksGuessable(raw)) add("warn", "EMAIL_WEBHOOK_TOKEN", "is short or guessable: use `openssl rand -hex 24`");
  });

  // 6. Files.
  check("S3_BUCKET", (raw) => {
    if (!raw && serverless) add("error", "S3_BUCKET", "is not set: a serverless host needs object storage for every file (request bodies are capped, and the database would hold every PDF)");
    else if (!raw) add("warn", "S3_BUCKET", "is not set: every file (PDFs, scans, certificates, signers' attachments, chattel files, logos) is kept in the database (it grows with every file; backups too) and every upload passes through the app");
    else {
      const endpoint = parseUrl(v("S3_ENDPOINT"));
      if (endpoint && endpoint.protocol === "http:" && !isLocalHost(endpoint.hostname)) add("warn", "S3_ENDPOINT", `is plain http to ${endpoint.host}: documents travel unencrypted`);
      add("ok", "S3_BUCKET", `${raw}${endpoint ? ` at ${endpoint.host}` : " on AWS S3"}: every file is stored there, uploads go straight to it (documents up to 100 MiB, chattel files, scans, logos, signers' attachments, settlement agents' scans: every browser form once its page has loaded, and /v1 through POST /v1/uploads) and stored files download as presigned GETs of five minutes or stream from it (what is built on request, the ZIP, a transferable record's marked copy, the table packet, comes from the server) (give the bucket the CORS rule in docs/deploy.md for browser uploads; run npm run storage:migrate once to move files kept in the database before)`);
    }
  });

  // 7. Payments and bank linking.
  const stripeKey = v("STRIPE_SECRET_KEY");
  if (stripeKey || v("STRIPE_WEBHOOK_SECRET")) {
    if (!stripeKey) add("error", "STRIPE_SECRET_KEY", "is not set while STRIPE_WEBHOOK_SECRET is");
    else if (stripeKey.startsWith("sk_test_") || stripeKey.startsWith("rk_test_")) add("warn", "STRIPE_SECRET_KEY", "is a test-mode key");
    if (!v("STRIPE_WEBHOOK_SECRET")) add("error", "STRIPE_WEBHOOK_SECRET", "is not set: /api/webhooks/payments answers 503 and no payment is recorded");
    else if (!v("STRIPE_WEBHOOK_SECRET")!.startsWith("whsec_")) add("error", "STRIPE_WEBHOOK_SECRET", "does not start with whsec_");
    if (!["STARTER", "PRO", "ENTERPRISE"].some((tier) => v(`STRIPE_PRICE_${tier}`))) add("warn", "STRIPE_PRICE_<TIER>", "no plan price id is set: no subscription maps to a plan");
  } else {
    add("ok", "STRIPE_SECRET_KEY", "not set: payments are off (the webhook answers 503)");
  }
  check("STRIPE_API_BASE_URL", (raw) => {
    if (raw) add("error", "STRIPE_API_BASE_URL", `overrides Stripe's API with ${raw} (a test fake): unset it`);
  });
  if (v("PLAID_CLIENT_ID") || v("PLAID_SECRET")) {
    if ((v("PLAID_ENV") ?? "sandbox") === "sandbox") add("warn", "PLAID_ENV", "is sandbox: real bank accounts need production");
    const key = v("BANK_TOKEN_ENCRYPTION_KEY");
    if (!key) add("error", "BANK_TOKEN_ENCRYPTION_KEY", "is not set: linked bank accounts are not saved (generate with `openssl rand -base64 32`)");
    else if (!checkBase64Key32(key)) add("error", "BANK_TOKEN_ENCRYPTION_KEY", "is not 32 bytes of base64: linked bank accounts are not saved");
    else add("ok", "BANK_TOKEN_ENCRYPTION_KEY", "32 bytes");
  } else {
    add("ok", "PLAID_CLIENT_ID", "not set: bank linking is off (the bank endpoints answer 503)");
  }
  check("PLAID_BASE_URL", (raw) => {
    if (raw) add("error", "PLAID_BASE_URL", `overrides Plaid's API with ${raw} (a test fake): unset it and use PLAID_ENV`);
  });

  // Text messages (docs/sms.md): all three or none.
  const twilioVars = ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "TWILIO_FROM"] as const;
  const twilioSet = twilioVars.filter((name) => v(name));
  if (twilioSet.length === 0) add("ok", "TWILIO_ACCOUNT_SID", "not set: text messages are off (emails only; sms_code and /api/webhooks/sms answer 503)");
  else {
    for (const name of twilioVars) if (!v(name)) add("error", name, "is not set while other TWILIO_* are: text messages stay off");
    const from = v("TWILIO_FROM");
    if (from && !/^\+[1-9]\d{6,14}$/.test(from)) add("error", "TWILIO_FROM", "is not an E.164 number (e.g. +15125550100)");
    if (twilioSet.length === twilioVars.length) add("ok", "TWILIO_FROM", "texts are on; point the number's incoming messages at {APP_URL}/api/webhooks/sms");
  }
  check("TWILIO_API_BASE_URL", (raw) => {
    if (raw) add("error", "TWILIO_API_BASE_URL", `overrides Twilio's API with ${raw} (a test fake): unset it`);
  });

  // 8. Records vault.
  check("VAULT_WEBHOOK_URL", (raw) => {
    if (!raw) return;
    const url = parseUrl(raw);
    if (url?.protocol === "http:" && !isLocalHost(url.hostname)) add("warn", "VAULT_WEBHOOK_URL", "is plain http: signed-document events travel unencrypted");
    if (!v("VAULT_WEBHOOK_SECRET")) add("error", "VAULT_WEBHOOK_SECRET", "is not set: the vault cannot tell our events from anyone's");
  });

  // 9. The deploy step a serverless host needs: its functions never migrate at start.
  if (serverless) {
    check("SERVERLESS", () => {
      if (!(v("SERVERLESS") && ["1", "true"].includes(v("SERVERLESS")!)) && !v("VERCEL") && !v("AWS_LAMBDA_FUNCTION_NAME") && !v("NETLIFY"))
        add("error", "SERVERLESS", "is not set (nor VERCEL, AWS_LAMBDA_FUNCTION_NAME, NETLIFY): functions would migrate and start job timers at every cold start; set SERVERLESS=1");
      else add("ok", "SERVERLESS", "functions neither migrate nor start job timers at cold start");
    });
    const build = options.buildCommand;
    if (build === undefined) add("warn", "(build command)", "unknown (no vercel.json buildCommand): make sure it is `npm run db:migrate && npm run build`; functions never migrate and /ready answers 503 while the schema is behind");
    else if (!/\bdb:migrate\b/.test(build)) add("error", "(build command)", `\`${build}\` does not run npm run db:migrate: functions never migrate, so the new release would serve an old schema (use \`npm run db:migrate && npm run build\`)`);
    else add("ok", "(build command)", `${build}`);
  }

  const errors = findings.filter((f) => f.level === "error").length;
  const warnings = findings.filter((f) => f.level === "warn").length;
  return { findings, errors, warnings };
}

/** One line per finding, errors first, then a summary line. */
export function formatPreflightReport(report: PreflightReport): string {
  const order: Record<PreflightLevel, number> = { error: 0, warn: 1, ok: 2 };
  const label: Record<PreflightLevel, string> = { error: "ERROR", warn: "warn ", ok: "ok   " };
  const lines = [...report.findings]
    .sort((a, b) => order[a.level] - order[b.level])
    .map((f) => `${label[f.level]} ${f.variable}: ${f.message}`);
  lines.push(
    report.errors > 0
      ? `preflight: ${report.errors} error(s), ${report.warnings} warning(s): not ready for production`
      : `preflight: no errors, ${report.warnings} warning(s)`,
  );
  return lines.join("\n");
}
