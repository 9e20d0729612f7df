import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { z } from "zod";
// Relative, not "@/db/…": next.config.ts loads this file, and Next resolves no path alias in what the config imports.
import { defaultPoolMax } from "../db/pool-size";

/**
 * The one module that reads `process.env` (a lint rule keeps it so). Every variable of the environment
 * contract is declared here; a bad value fails at start with a message naming the variable.
 */

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === "" ? undefined : v))
  .optional();

const optionalUrl = (protocols: string[]) =>
  optionalString.refine(
    (v) => {
      if (v === undefined) return true;
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL (${protocols.join(", ")})` },
  );

const booleanFlag = z
  .enum(["", "0", "1", "true", "false"])
  .optional()
  .transform((v) => v === "1" || v === "true");

const positiveInt = (fallback: number) =>
  z.coerce.number().int().positive().optional().transform((v) => v ?? fallback);

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: optionalUrl(["postgres:", "postgresql:"]),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(100).optional(),
    PGLITE_DIR: z.string().trim().min(1).default(".data/pglite"),
    APP_URL: z.url({ protocol: /^https?$/ }).default("http://localhost:3000"),
    API_PORT: z.coerce.number().int().min(1).max(65535).default(4000),
    AUTH_SECRET: optionalString.refine((v) => v === undefined || v.length >= 32, {
      message: "must be at least 32 characters (try: openssl rand -base64 32)",
    }),
    ACCESS_TOKEN_TTL_SECONDS: positiveInt(900).pipe(z.number().max(24 * 3600)),
    ADMIN_READ_CAP: positiveInt(500),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    /**
     * How many reverse proxies in front of the app append to X-Forwarded-For. 0 (unset): the header is
     * ignored and the evidence IP is the socket peer; N: the Nth address from the right of the header.
     */
    TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),

    CLERK_SECRET_KEY: optionalString.refine((v) => v === undefined || /^sk_(test|live)_/.test(v), {
      message: "must start with sk_test_ or sk_live_",
    }),
    NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: optionalString.refine((v) => v === undefined || /^pk_(test|live)_/.test(v), {
      message: "must start with pk_test_ or pk_live_",
    }),
    /** Clerk's Backend API, read once per new user who signs in before the identity webhook arrived. */
    CLERK_API_URL: z.url({ protocol: /^https?$/ }).default("https://api.clerk.com"),
    CLERK_JWT_KEY: optionalString.refine((v) => v === undefined || v.includes("BEGIN PUBLIC KEY"), {
      message: "must be a PEM public key (-----BEGIN PUBLIC KEY-----)",
    }),
    CLERK_AUTHORIZED_PARTIES: optionalString.transform((v) =>
      v ? v.split(",").map((s) => s.trim()).filter(Boolean) : [],
    ),
    CLERK_WEBHOOK_SIGNING_SECRET: optionalString.refine((v) => v === undefined || v.startsWith("whsec_"), {
      message: "must start with whsec_",
    }),

    STRIPE_SECRET_KEY: optionalString,
    STRIPE_WEBHOOK_SECRET: optionalString,
    /** Overrides the Stripe API address (protocol, host, port), e.g. for a local stub. */
    STRIPE_API_BASE_URL: optionalUrl(["http:", "https:"]),

    PLAID_CLIENT_ID: optionalString,
    PLAID_SECRET: optionalString,
    PLAID_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
    PLAID_BASE_URL: optionalUrl(["http:", "https:"]),
    BANK_TOKEN_ENCRYPTION_KEY: optionalString,

    EMAIL_WEBHOOK_TOKEN: optionalString,
    /** Text messages (signers' `sms_code`) through Twilio; off while any of the three is unset. */
    TWILIO_ACCOUNT_SID: optionalString,
    TWILIO_AUTH_TOKEN: optionalString,
    TWILIO_FROM: optionalString,
    /** Overrides Twilio's API address (protocol, host, port), e.g. for the fake in tests. */
    TWILIO_API_BASE_URL: optionalUrl(["http:", "https:"]),
    SMTP_URL: optionalUrl(["smtp:", "smtps:"]),
    EMAIL_FROM: z.string().trim().min(3).default("Closing & Signing <no-reply@localhost>"),
    INBOUND_EMAIL_DOMAIN: z.string().trim().min(1).default("inbound.localhost"),

    S3_BUCKET: optionalString,
    S3_ENDPOINT: optionalUrl(["http:", "https:"]),
    S3_REGION: z.string().trim().min(1).default("us-east-1"),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: booleanFlag,

    VAULT_WEBHOOK_URL: optionalUrl(["http:", "https:"]),
    VAULT_WEBHOOK_SECRET: optionalString,
    /**
     * 1: outbound webhooks may reach loopback addresses (127.0.0.0/8, ::1), for a receiver on this
     * machine in development and tests. Refused in production; private and metadata addresses stay refused.
     */
    WEBHOOKS_ALLOW_LOOPBACK: booleanFlag,

    REALTIME_URL: optionalString.refine(
      (v) => v === undefined || v === "memory:" || /^rediss?:\/\//.test(v),
      { message: "must be memory: or a redis:// URL" },
    ),
    /** Interval of the heartbeat event on server-sent event streams (comments). */
    REALTIME_HEARTBEAT_MS: positiveInt(15_000),
    /**
     * A browser's event stream (comments) ends after this long; EventSource reconnects at once and the
     * route checks the session and the document's scope again, so a revoked member stops receiving.
     */
    REALTIME_STREAM_MAX_MS: positiveInt(10 * 60_000),

    INNGEST_EVENT_KEY: optionalString,
    INNGEST_SIGNING_KEY: optionalString,
    INNGEST_DEV: booleanFlag,
    INNGEST_BASE_URL: optionalUrl(["http:", "https:"]),
    JOBS_POLL_INTERVAL_MS: positiveInt(1000),

    /**
     * 1: this process is a serverless function (cold starts, frozen between requests): it neither
     * migrates nor starts job timers at start. Also detected from the host's own variables (`VERCEL`,
     * `AWS_LAMBDA_FUNCTION_NAME`, `NETLIFY`), read here only for that.
     */
    SERVERLESS: booleanFlag,
    VERCEL: optionalString,
    AWS_LAMBDA_FUNCTION_NAME: optionalString,
    NETLIFY: optionalString,
    /** Set by `npm start`: Next leaves SIGTERM/SIGINT to instrumentation.ts (graceful shutdown of the job in hand). */
    NEXT_MANUAL_SIG_HANDLE: booleanFlag,

    /**
     * The PKCS#12 (certificate + private key) that signs sealed PDFs: a file path, or the file itself
     * as `base64:<…>` (for secret stores that hold text). Unset outside production: a self-signed
     * development certificate is generated once under `<data dir>/sealing-dev.p12`.
     */
    SEALING_P12: optionalString,
    SEALING_P12_PASSWORD: z.string().optional(),
    /**
     * The RFC 3161 time-stamp authority every seal is stamped by (PAdES-B-T), e.g.
     * `http://timestamp.digicert.com`. Unset: seals carry no trusted timestamp (preflight warns in
     * production). Set: no package is sealed without one; an unreachable authority delays the seal.
     */
    TSA_URL: optionalUrl(["http:", "https:"]),
    /** HTTP basic credentials for an authority that asks for them (both or neither). */
    TSA_USERNAME: optionalString,
    TSA_PASSWORD: optionalString,
    /**
     * PAdES-B-LT. `auto` (default): when the sealing certificate, its chain or the time-stamp
     * authority's certificate names a revocation service (OCSP responder, CRL distribution point),
     * each seal embeds the chain and the revocation answers (a DSS dictionary); an unreachable service
     * delays the seal. `off`: never (seals stay B-T).
     */
    SEAL_LTV: z.enum(["auto", "off"]).default("auto"),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV === "production" && env.WEBHOOKS_ALLOW_LOOPBACK && !isLocalAddress(env.APP_URL)) {
      ctx.addIssue({
        code: "custom",
        path: ["WEBHOOKS_ALLOW_LOOPBACK"],
        message: `is for development and tests only: unset it in production when APP_URL (${env.APP_URL}) is not a local address`,
      });
    }
    if (env.NODE_ENV === "production" && !env.AUTH_SECRET && !isLocalAddress(env.APP_URL)) {
      ctx.addIssue({
        code: "custom",
        path: ["AUTH_SECRET"],
        message: `is required in production when APP_URL (${env.APP_URL}) is not a local address`,
      });
    }
    if (env.NODE_ENV === "production" && !env.DATABASE_URL && !isLocalAddress(env.APP_URL)) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_URL"],
        message: `is required in production when APP_URL (${env.APP_URL}) is not a local address: the embedded PGlite database is for development and trials on one machine (one process owns it, nothing backs it up, demo-grade only)`,
      });
    }
    if (env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY && !env.CLERK_SECRET_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["CLERK_SECRET_KEY"],
        message: "is required with NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY (Clerk's middleware needs both)",
      });
    }
    if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({
        code: "custom",
        path: [env.S3_ACCESS_KEY_ID ? "S3_SECRET_ACCESS_KEY" : "S3_ACCESS_KEY_ID"],
        message: "must be set together with the other S3 credential",
      });
    }
    if (env.NODE_ENV === "production" && !env.SEALING_P12 && !isLocalAddress(env.APP_URL)) {
      ctx.addIssue({
        code: "custom",
        path: ["SEALING_P12"],
        message: `is required in production when APP_URL (${env.APP_URL}) is not a local address (sealed PDFs must not be signed with a self-signed development certificate)`,
      });
    }
    if (Boolean(env.TSA_USERNAME) !== Boolean(env.TSA_PASSWORD)) {
      ctx.addIssue({
        code: "custom",
        path: [env.TSA_USERNAME ? "TSA_PASSWORD" : "TSA_USERNAME"],
        message: "must be set together with the other time-stamp authority credential",
      });
    }
    if (Boolean(env.PLAID_CLIENT_ID) !== Boolean(env.PLAID_SECRET)) {
      ctx.addIssue({
        code: "custom",
        path: [env.PLAID_CLIENT_ID ? "PLAID_SECRET" : "PLAID_CLIENT_ID"],
        message: "must be set together with the other Plaid credential",
      });
    }
  });

export const PAID_PLAN_TIERS = ["starter", "pro", "enterprise"] as const;
export type PaidPlanTier = (typeof PAID_PLAN_TIERS)[number];

export type Env = z.infer<typeof schema> & {
  /** STRIPE_PRICE_<TIER> variables: plan tier → Stripe price id. */
  STRIPE_PRICES: Partial<Record<PaidPlanTier, string>>;
};

/** Collects STRIPE_PRICE_<TIER>; an unknown tier or an empty id is a configuration error. */
function parseStripePrices(source: Record<string, string | undefined>, ctx: string[]): Env["STRIPE_PRICES"] {
  const prices: Env["STRIPE_PRICES"] = {};
  for (const [key, raw] of Object.entries(source)) {
    const match = /^STRIPE_PRICE_([A-Z0-9_]+)$/.exec(key);
    const value = raw?.trim();
    if (!match || !value) continue;
    const tier = match[1]!.toLowerCase();
    if (!(PAID_PLAN_TIERS as readonly string[]).includes(tier)) {
      ctx.push(`${key}: unknown plan tier (use one of ${PAID_PLAN_TIERS.map((t) => t.toUpperCase()).join(", ")})`);
      continue;
    }
    prices[tier as PaidPlanTier] = value;
  }
  return prices;
}

/** Whether `url` is this machine (localhost, 127.0.0.1, [::1]): a trial or a test run, not a public deployment. */
export function isLocalAddress(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]" || host.endsWith(".localhost");
}

/** Turns zod issues into one line per variable, e.g. `DATABASE_URL: must be a URL (postgres:, postgresql:)`. */
export function formatEnvIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.join(".") || "(environment)"}: ${issue.message}`)
    .join("\n");
}

export class InvalidEnvironmentError extends Error {
  constructor(details: string) {
    super(`Invalid environment configuration:\n${details}`);
    this.name = "InvalidEnvironmentError";
  }
}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // `NAME=` (as every line of .env.example reads) means unset, for numbers, enums and URLs with a
  // default too: otherwise `cp .env.example .env` would refuse to start (DATABASE_POOL_MAX= is 0).
  const given = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  const result = schema.safeParse(given);
  const problems = result.success ? [] : [formatEnvIssues(result.error)];
  const STRIPE_PRICES = parseStripePrices(given, problems);
  if (!result.success || problems.length > 0) throw new InvalidEnvironmentError(problems.join("\n"));
  return { ...result.data, STRIPE_PRICES };
}

let cached: Env | undefined;

export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests replace the environment wholesale; production code never calls this. */
export function setEnvForTests(overrides: Record<string, string | undefined>): Env {
  cached = parseEnv({ ...process.env, ...overrides });
  return cached;
}

/** Where local state lives (the PGlite directory's parent): `.data` by default. */
export function dataDir(env: Env = getEnv()): string {
  return dirname(resolve(env.PGLITE_DIR));
}

let authSecret: string | undefined;

/**
 * AUTH_SECRET when configured; otherwise a random secret generated once and kept in
 * `<data dir>/auth-secret` so every local process (Next, core-api, scripts) agrees on it.
 */
export function getAuthSecret(env: Env = getEnv()): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  if (authSecret) return authSecret;
  const file = resolve(dataDir(env), "auth-secret");
  if (existsSync(file)) {
    authSecret = readFileSync(file, "utf8").trim();
  } else {
    mkdirSync(dirname(file), { recursive: true });
    const generated = randomBytes(32).toString("base64url");
    try {
      writeFileSync(file, generated, { flag: "wx", mode: 0o600 });
      authSecret = generated;
    } catch {
      // Another process created it first: use theirs.
      authSecret = readFileSync(file, "utf8").trim();
    }
    chmodSync(file, 0o600);
  }
  return authSecret;
}

/**
 * PostgreSQL connections per process: DATABASE_POOL_MAX, else twice this host's cores (at most 10).
 * More connections than the cores can serve make backends contend: on a 2-core box the session
 * endpoint served 7.5k req/s with 4 connections and 4.5k with 10 (docs/performance.md).
 */
export function databasePoolMax(env: Env = getEnv()): number {
  return env.DATABASE_POOL_MAX ?? defaultPoolMax();
}

export function isClerkConfigured(env: Env = getEnv()): boolean {
  return Boolean(env.CLERK_SECRET_KEY || env.CLERK_JWT_KEY);
}

/**
 * Whether the browser signs in with Clerk (`@clerk/nextjs`) instead of the local provider: both
 * Clerk keys are set. (`isClerkConfigured` alone only makes /v1 accept Clerk tokens.)
 */
export function isClerkWebConfigured(env: Env = getEnv()): boolean {
  return Boolean(env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY && env.CLERK_SECRET_KEY);
}

/**
 * The origins a Clerk session token's `azp` may name: APP_URL's origin always, plus
 * CLERK_AUTHORIZED_PARTIES. A token minted for another site is refused everywhere.
 */
export function clerkAuthorizedParties(env: Env = getEnv()): string[] {
  return [...new Set([new URL(env.APP_URL).origin, ...env.CLERK_AUTHORIZED_PARTIES])];
}

/** A serverless host: no migration and no job timer at start (docs/deploy.md, "Cold starts"). */
export function isServerless(env: Env = getEnv()): boolean {
  return env.SERVERLESS || Boolean(env.VERCEL || env.AWS_LAMBDA_FUNCTION_NAME || env.NETLIFY);
}

export function isInngestConfigured(env: Env = getEnv()): boolean {
  return Boolean(env.INNGEST_EVENT_KEY || env.INNGEST_DEV || env.INNGEST_BASE_URL);
}

/**
 * next-auth builds its own redirects (the error page after a failed credentials callback) on
 * NEXTAUTH_URL, else on http://localhost:3000: the site is APP_URL, so next-auth is given that.
 */
export function pointNextAuthAtAppUrl(): void {
  process.env.NEXTAUTH_URL = getEnv().APP_URL;
}
