import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { migrateDb, openDb, type DbHandle } from "@/db/client";
import { issueLocalAccessToken, localSubjectForEmail } from "@/lib/auth/local-tokens";
import { setEnvForTests } from "@/lib/env";
import { seedDemo } from "@/lib/seed/seed-demo";
import { exchangeRaw } from "../helpers/raw-http";
import { expect, test } from "./support/fixtures";
import { startCoreApiServer, type CoreApiServer } from "./support/core-api-server";
import { startNextServer, type NextServer } from "./support/next-server";

/**
 * Every operation of the OpenAPI document, sent the way curl sends it, to the web server `npm start`
 * runs and to the standalone core-api (`dist/core-api.mjs`), both from the production build on one
 * fresh database: without a body and without Content-Length (`curl -X DELETE …`), and, where the
 * operation takes a body, with one (`-d` with and without a JSON Content-Type, chunked, a file), as a
 * manager and as a signer. No answer may be a server error. Requests only, no page.
 */
const POSTGRES = process.env.E2E_POSTGRES_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const AUTH_SECRET = randomBytes(32).toString("base64url");
const METHODS = ["get", "post", "put", "patch", "delete"] as const;
/** A well-formed id that names nothing, for a path parameter no list offers a value for. */
const UNKNOWN_ID = "01900000-0000-7000-8000-000000000000";

type Operation = { method: string; path: string; mediaTypes: string[] };
type Variant = { name: string; headers: string[]; body?: Buffer };
type Failure = { as: string; request: string; variant: string; status: number; body: string };

let databaseName = "";
let handle: DbHandle | undefined;
let web: NextServer | undefined;
let api: CoreApiServer | undefined;

async function bearer(email: string): Promise<string> {
  return (await issueLocalAccessToken({ subject: localSubjectForEmail(email) })).token;
}

function operationsOf(document: { paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>> }): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      method: method.toUpperCase(),
      path,
      mediaTypes: Object.keys(item[method]!.requestBody?.content ?? {}),
    })),
  );
}

/** What curl sends for each way of giving the operation a body (none when it takes none). */
function variantsOf(operation: Operation): Variant[] {
  const variants: Variant[] = [{ name: "no body, no Content-Length", headers: [] }];
  const json = Buffer.from("{}");
  const file = Buffer.from("%PDF-1.4\n% not really a PDF\n%%EOF\n");
  for (const type of operation.mediaTypes) {
    if (type === "application/json") {
      variants.push({ name: "-d '{}' -H 'Content-Type: application/json'", headers: ["Content-Type: application/json"], body: json });
      variants.push({ name: "-d '{}' (curl's form type)", headers: ["Content-Type: application/x-www-form-urlencoded"], body: json });
      variants.push({ name: "chunked '{}'", headers: ["Content-Type: application/json", "Transfer-Encoding: chunked"], body: json });
    } else if (type === "multipart/form-data") {
      const boundary = "------------------------curlboundary0123";
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
        file,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      variants.push({ name: "-F file=@a.pdf", headers: [`Content-Type: multipart/form-data; boundary=${boundary}`], body });
      variants.push({ name: "-F with a cut multipart body", headers: [`Content-Type: multipart/form-data; boundary=${boundary}`], body: body.subarray(0, 60) });
    } else {
      variants.push({ name: `--data-binary -H 'Content-Type: ${type}'`, headers: [`Content-Type: ${type}`], body: file });
    }
  }
  return variants;
}

function frame(method: string, url: URL, token: string, variant: Variant): Buffer {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, "User-Agent: curl/8.5.0", "Accept: */*", `Authorization: Bearer ${token}`, "Connection: close", ...variant.headers];
  const chunked = variant.headers.includes("Transfer-Encoding: chunked");
  if (variant.body && !chunked) lines.push(`Content-Length: ${variant.body.length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`);
  if (!variant.body) return head;
  const body = chunked ? Buffer.concat([Buffer.from(`${variant.body.length.toString(16)}\r\n`), variant.body, Buffer.from("\r\n0\r\n\r\n")]) : variant.body;
  return Buffer.concat([head, body]);
}

/**
 * Fills a path's parameters from the server's own lists (the first row of the collection the
 * parameter indexes, read with the same token), else from the parameter's enum, else an unknown id.
 */
async function resolvePath(baseUrl: string, token: string, template: string, parameterEnums: Map<string, string>): Promise<string> {
  const segments = template.split("/");
  for (let i = 0; i < segments.length; i++) {
    const match = /^\{(\w+)\}$/.exec(segments[i]!);
    if (!match) continue;
    let value = parameterEnums.get(`${template} ${match[1]}`);
    if (value === undefined) {
      const collection = segments.slice(0, i).join("/");
      const response = await fetch(`${baseUrl}${collection}`, { headers: { authorization: `Bearer ${token}` } }).catch(() => undefined);
      const listed = response?.ok ? ((await response.json()) as { data?: { id?: string | number }[] }).data?.[0]?.id : undefined;
      value = listed === undefined ? UNKNOWN_ID : String(listed);
    }
    segments[i] = encodeURIComponent(value);
  }
  return segments.join("/");
}

async function sendEveryOperation(baseUrl: string): Promise<{ sent: number; failures: Failure[] }> {
  const manager = await bearer("manager@demo.local");
  const signer = await bearer("signer@demo.local");
  const documentResponse = await fetch(`${baseUrl}/v1/openapi.json`, { headers: { authorization: `Bearer ${manager}` } });
  expect(documentResponse.status).toBe(200);
  const document = (await documentResponse.json()) as Parameters<typeof operationsOf>[0] & {
    paths: Record<string, Record<string, { parameters?: { name: string; in: string; schema?: { enum?: string[] } }[] }>>;
  };
  const parameterEnums = new Map<string, string>();
  for (const [path, item] of Object.entries(document.paths)) {
    for (const operation of Object.values(item)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === "path" && parameter.schema?.enum?.[0] !== undefined) parameterEnums.set(`${path} ${parameter.name}`, parameter.schema.enum[0]);
      }
    }
  }
  const operations = operationsOf(document);
  expect(operations.length).toBeGreaterThan(100);
  const target = { host: new URL(baseUrl).hostname, port: Number(new URL(baseUrl).port) };
  const failures: Failure[] = [];
  let sent = 0;
  // A signer first (refusals only), then the manager, whose writes change what later paths name.
  for (const [as, token] of [["signer", signer], ["manager", manager]] as const) {
    for (const operation of operations) {
      const url = new URL(await resolvePath(baseUrl, token, operation.path, parameterEnums), baseUrl);
      for (const variant of variantsOf(operation)) {
        const answer = await exchangeRaw(target, frame(operation.method, url, token, variant));
        sent++;
        // 503 is how a feature without its provider answers (a clear JSON error); anything else 5xx is a fault.
        const switchedOff = answer.status === 503 && /"error"/.test(answer.body);
        if (answer.status >= 500 && !switchedOff) {
          failures.push({ as, request: `${operation.method} ${url.pathname}`, variant: variant.name, status: answer.status, body: answer.body.slice(0, 200) });
        }
      }
    }
  }
  return { sent, failures };
}

test.describe("every /v1 operation as curl sends it", { tag: "@desktop" }, () => {
  test.beforeAll(async () => {
    test.setTimeout(300_000);
    databaseName = `csig_curl_${randomBytes(6).toString("hex")}`;
    const admin = postgres(POSTGRES, { max: 1, onnotice: () => {}, connect_timeout: 5 });
    try {
      await admin.unsafe(`create database ${databaseName}`);
    } finally {
      await admin.end();
    }
    const url = new URL(POSTGRES);
    url.pathname = `/${databaseName}`;
    // This process mints the tokens, with the secret both servers share.
    setEnvForTests({ AUTH_SECRET, DATABASE_URL: url.toString(), LOG_LEVEL: "warn" });
    handle = await openDb({ url: url.toString() }, { max: 1 });
    await migrateDb(handle);
    await seedDemo(handle.db);
    const shared = { DATABASE_URL: url.toString(), AUTH_SECRET, LOG_LEVEL: "warn", REALTIME_URL: "memory:" };
    [web, api] = await Promise.all([startNextServer(() => shared), startCoreApiServer(shared)]);
  });

  test.afterAll(async () => {
    await Promise.all([web?.stop(), api?.stop()]);
    await handle?.close();
    if (databaseName) {
      const admin = postgres(POSTGRES, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  });

  for (const server of ["npm start", "the standalone core-api"] as const) {
    test(`${server}: no operation answers a server error`, async () => {
      test.setTimeout(240_000);
      const running = server === "npm start" ? web! : api!;
      const { sent, failures } = await sendEveryOperation(running.baseUrl);
      if (failures.length > 0) console.log(`--- ${server} log:\n${running.log().slice(-3000)}`);
      expect(failures, `${failures.length} of ${sent} requests answered 5xx`).toEqual([]);
    });
  }
});
