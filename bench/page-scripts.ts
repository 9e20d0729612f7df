// Every script the signer's package page loads before the first interaction, measured in a real browser.
//
// The HTML's own list (bench/first-load-js.ts) misses what the page imports while it hydrates: the
// lazily loaded pieces (the documents with their field overlays, the decline dialog, live refresh) and
// pdf.js, which the viewer imports as soon as it mounts. Here headless Chromium opens the page in a
// fresh context (empty HTTP cache, only the session cookie) and records every JavaScript response
// until the page is quiet — the viewer has painted its first page and no request has been in flight
// for a second — without clicking, typing or scrolling. Each script is gzipped at level 9 and summed.
// Web workers' scripts (the PDF.js worker) run off the main thread and are not counted: Chromium reports
// the worker's bootstrap by URL, and the chunk it then imports is recognised by its content (it defines
// `WorkerMessageHandler` but not `GlobalWorkerOptions`). pdf.js itself is counted and reported apart:
// in the chunk that defines `GlobalWorkerOptions`, only the pdf.js module is pdf.js. The bundler puts
// whatever only pdf.js needs in the same chunk (a polyfill, say); those modules count towards the rest. The chunk's modules are read by running the
// chunk's registration (`TURBOPACK.push([script, id, factory, …])`) in an empty VM context, which
// defines the factories without calling them.
import { runInNewContext } from "node:vm";
import { gzipSync } from "node:zlib";
import type { Browser, Cookie } from "playwright-core";

export const TARGET_PAGE_SCRIPTS_GZIP_KB = 150;

export type PageScript = {
  url: string;
  gzipBytes: number;
  /** The pdf.js module's share of this script (gzip -9 of that module alone); 0 in other scripts. */
  pdfjsGzipBytes: number;
  pdfjs: boolean;
};
export type PageScripts = {
  path: string;
  scripts: PageScript[];
  workers: string[];
  totalGzipBytes: number;
  pdfjsGzipBytes: number;
  /** Everything but pdf.js: the figure the 150 kB budget applies to. */
  restGzipBytes: number;
};

const QUIET_MS = 1000;

function isPdfjs(source: string): boolean {
  return source.includes("GlobalWorkerOptions") && source.includes("getDocument");
}

/**
 * The gzip size of the pdf.js module(s) in a chunk that contains pdf.js. A Turbopack chunk registers
 * its modules as `[script, id, factory, id, factory, …]`; the factories' sources are gzipped one by
 * one. When the chunk is not in that form, the whole chunk is taken as pdf.js.
 */
function pdfjsModuleGzipBytes(source: string, chunkGzipBytes: number): number {
  const pushed: unknown[][] = [];
  try {
    const sandbox = { TURBOPACK: { push: (entry: unknown[]) => pushed.push(entry) } };
    runInNewContext(`globalThis.TURBOPACK = TURBOPACK;\n${source}`, sandbox, { timeout: 5_000 });
  } catch {
    return chunkGzipBytes;
  }
  const factories = pushed.flatMap((entry) => entry.filter((item): item is (...args: unknown[]) => unknown => typeof item === "function"));
  const pdfjsModules = factories.map((factory) => Function.prototype.toString.call(factory)).filter(isPdfjs);
  if (pdfjsModules.length === 0) return chunkGzipBytes;
  const bytes = pdfjsModules.reduce((sum, module) => sum + gzipSync(module, { level: 9 }).byteLength, 0);
  return Math.min(bytes, chunkGzipBytes);
}

/** The PDF.js worker's code (imported inside the worker, so not named by Chromium's worker event). */
function isPdfjsWorker(source: string): boolean {
  return source.includes("WorkerMessageHandler") && !source.includes("GlobalWorkerOptions");
}

/** Opens `path` once, cold, as the signed-in user, and sums every script fetched before any interaction. */
export async function measurePageScripts(browser: Browser, base: string, cookies: Cookie[], path: string): Promise<PageScripts> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const workers = new Set<string>();
  page.on("worker", (worker) => workers.add(new URL(worker.url()).pathname));
  const bodies: Promise<PageScript | null>[] = [];
  let inFlight = 0;
  let lastActivity = Date.now();
  page.on("request", () => {
    inFlight++;
    lastActivity = Date.now();
  });
  const settle = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastActivity = Date.now();
  };
  page.on("requestfailed", settle);
  page.on("requestfinished", settle);
  page.on("response", (response) => {
    const type = response.request().resourceType();
    const contentType = response.headers()["content-type"] ?? "";
    if (type !== "script" && !/javascript/.test(contentType)) return;
    const url = new URL(response.url());
    bodies.push(
      response
        .body()
        .then((body) => {
          const source = body.toString("latin1");
          if (isPdfjsWorker(source)) {
            workers.add(url.pathname);
            return null;
          }
          const gzipBytes = gzipSync(body, { level: 9 }).byteLength;
          const pdfjs = isPdfjs(source);
          const pdfjsGzipBytes = pdfjs ? pdfjsModuleGzipBytes(body.toString("utf8"), gzipBytes) : 0;
          return { url: url.pathname, gzipBytes, pdfjsGzipBytes, pdfjs };
        })
        .catch(() => null),
    );
  });
  try {
    const response = await page.goto(`${base}${path}`, { waitUntil: "load" });
    if (!response || response.status() !== 200) throw new Error(`${path} answered ${response?.status() ?? "nothing"}, not the page`);
    // The viewer marks its first painted page; pages without a viewer simply time out here.
    await page.waitForSelector("[data-first-page-painted]", { timeout: 30_000 }).catch(() => undefined);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (inFlight > 0 || Date.now() - lastActivity < QUIET_MS)) await page.waitForTimeout(100);
    const scripts = (await Promise.all(bodies)).filter((s): s is PageScript => s !== null && !workers.has(s.url));
    const unique = [...new Map(scripts.map((s) => [s.url, s])).values()];
    const total = unique.reduce((sum, s) => sum + s.gzipBytes, 0);
    const pdfjs = unique.reduce((sum, s) => sum + s.pdfjsGzipBytes, 0);
    return { path, scripts: unique, workers: [...workers], totalGzipBytes: total, pdfjsGzipBytes: pdfjs, restGzipBytes: total - pdfjs };
  } finally {
    await context.close();
  }
}

export function pageScriptsPass(result: PageScripts): boolean {
  return result.restGzipBytes / 1024 <= TARGET_PAGE_SCRIPTS_GZIP_KB;
}

export function pageScriptsReport(result: PageScripts): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  const lines = [
    `scripts loaded by ${result.path} before the first interaction (Chromium, cold cache, gzip -9; workers excluded: ${result.workers.join(", ") || "none"}):`,
    "",
    "| script | gzip | of which the pdf.js module |",
    "|:--|--:|--:|",
    ...[...result.scripts].sort((a, b) => b.gzipBytes - a.gzipBytes).map((s) => `| \`${s.url}\` | ${kb(s.gzipBytes)} | ${s.pdfjs ? kb(s.pdfjsGzipBytes) : ""} |`),
    "",
    `total ${kb(result.totalGzipBytes)} in ${result.scripts.length} scripts, of which pdf.js ${kb(result.pdfjsGzipBytes)}; ` +
      `the rest ${kb(result.restGzipBytes)} (target ≤ ${TARGET_PAGE_SCRIPTS_GZIP_KB} kB): ${pageScriptsPass(result) ? "PASS" : "FAIL"}`,
  ];
  return lines.join("\n");
}
