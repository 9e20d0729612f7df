// First-load JavaScript of the signer's routes, used by `npm run bench` and `npm run bench:viewer`.
//
// Method: fetch the page's HTML from `next start` as the signed-in signer, take every <script src> and
// <link rel=preload as=script> (noModule polyfills excluded: a module-capable browser never fetches
// them), fetch each from the same server, gzip it at level 9 and sum. That is what a browser downloads
// before the page is interactive; chunks fetched later (pdf.js and its worker, dialogs imported on
// demand, Clerk's code when Clerk is not configured) are not in the HTML and so not counted. Turbopack's
// `next build` no longer prints per-route sizes, so this is the per-route figure.
import { gzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import type { Browser, Cookie } from "playwright-core";
import { openDb } from "@/db/client";
import { packageDocuments, packageSigners, signatureRequests, signingPackages, users } from "@/db/schema";

export const TARGET_FIRST_LOAD_GZIP_KB = 150;
export const SIGNER_EMAIL = "signer@demo.local";
const SIGNER_PASSWORD = "demo-signing";
const DEMO_PACKAGE_TITLE = "Retail installment contract — Sam Signer";

export type FirstLoad = { scripts: { src: string; gzipBytes: number }[]; totalGzipBytes: number };
export type RouteFirstLoad = { route: string; path: string; status: number } & FirstLoad;

/** The scripts a browser loads for the page before any interaction: <script src> and script preloads. */
export async function firstLoadJs(base: string, cookieHeader: string, path: string): Promise<FirstLoad & { status: number }> {
  const response = await fetch(`${base}${path}`, { headers: { cookie: cookieHeader }, redirect: "manual" });
  const html = await response.text();
  const srcs = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"[^>]*>/g)) if (!/\snomodule/i.test(m[0])) srcs.add(m[1]!);
  for (const m of html.matchAll(/<link\b[^>]*>/g)) {
    if (!/\brel="preload"/.test(m[0]) || !/\bas="script"/.test(m[0])) continue;
    const href = /\bhref="([^"]+)"/.exec(m[0]);
    if (href) srcs.add(href[1]!);
  }
  const scripts = await Promise.all(
    [...srcs].map(async (src) => {
      const url = new URL(src.replace(/&amp;/g, "&"), base);
      const body = Buffer.from(await (await fetch(url)).arrayBuffer());
      return { src: url.pathname, gzipBytes: gzipSync(body, { level: 9 }).byteLength };
    }),
  );
  return { status: response.status, scripts, totalGzipBytes: scripts.reduce((s, x) => s + x.gzipBytes, 0) };
}

/** Signs in as the demo signer through the sign-in page (headless Chromium), as a person would. */
export async function signInAsSigner(browser: Browser, base: string): Promise<Cookie[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/sign-in`);
  await page.getByLabel("Email").fill(SIGNER_EMAIL);
  await page.getByLabel("Password").fill(SIGNER_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"), { timeout: 30_000 });
  const cookies = await context.cookies();
  await context.close();
  if (!cookies.some((c) => c.name.includes("session-token"))) throw new Error("sign-in did not set a session cookie");
  return cookies;
}

/** The seeded demo package of the signer (their turn) and a copy of it they have already signed (for /done). */
async function signerPackages(databaseUrl: string): Promise<{ demoId: string; signedId: string }> {
  const handle = await openDb({ url: databaseUrl }, { max: 1 });
  try {
    const db = handle.db;
    const [signer] = await db.select().from(users).where(eq(users.email, SIGNER_EMAIL));
    const [demo] = await db.select().from(signingPackages).where(eq(signingPackages.title, DEMO_PACKAGE_TITLE));
    if (!signer || !demo) throw new Error(`demo data missing (${SIGNER_EMAIL} or "${DEMO_PACKAGE_TITLE}")`);
    const [doc] = await db.select().from(packageDocuments).where(eq(packageDocuments.packageId, demo.id));
    if (!doc) throw new Error("the demo package has no document");
    const signedId = await db.transaction(async (tx) => {
      const now = new Date();
      const [pkg] = await tx
        .insert(signingPackages)
        .values({ organizationId: demo.organizationId, companyId: demo.companyId, locationId: demo.locationId, title: "First-load benchmark — signed", status: "completed", sentAt: now })
        .returning();
      const [copy] = await tx
        .insert(packageDocuments)
        .values({ packageId: pkg!.id, name: doc.name, storageKey: doc.storageKey, sizeBytes: doc.sizeBytes, sha256: doc.sha256, pageCount: doc.pageCount, position: 0 })
        .returning();
      const [row] = await tx
        .insert(packageSigners)
        .values({ packageId: pkg!.id, userId: signer.id, name: signer.name, email: signer.email, routingOrder: 1, status: "signed", signedAt: now })
        .returning();
      await tx.insert(signatureRequests).values({ packageId: pkg!.id, documentId: copy!.id, signerId: row!.id, status: "signed", signedAt: now });
      return pkg!.id;
    });
    return { demoId: demo.id, signedId };
  } finally {
    await handle.close();
  }
}

/**
 * First-load JS of every signer route and home, signed in as the demo signer. Adds one signed package
 * to the (throw-away) database for `/signings/[id]/done`.
 */
export async function measureSignerRoutes(options: { base: string; databaseUrl: string; cookieHeader: string }): Promise<RouteFirstLoad[]> {
  const { demoId, signedId } = await signerPackages(options.databaseUrl);
  const routes = [
    { route: "/signings/[id]", path: `/signings/${demoId}` },
    { route: "/signings/[id]/bank", path: `/signings/${demoId}/bank` },
    { route: "/signings/[id]/done", path: `/signings/${signedId}/done` },
    { route: "/me/esignatures", path: "/me/esignatures" },
    { route: "/ (home)", path: "/" },
  ];
  const results: RouteFirstLoad[] = [];
  for (const r of routes) {
    const measured = await firstLoadJs(options.base, options.cookieHeader, r.path);
    if (measured.status !== 200) throw new Error(`${r.route}: ${r.path} answered ${measured.status}, not the page`);
    results.push({ ...r, ...measured });
  }
  return results;
}

export function signerPagePasses(results: RouteFirstLoad[]): boolean {
  const page = results.find((r) => r.route === "/signings/[id]");
  return page !== undefined && page.totalGzipBytes / 1024 <= TARGET_FIRST_LOAD_GZIP_KB;
}

export function firstLoadTable(results: RouteFirstLoad[]): string {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const lines = ["| route | first-load JS (gzip -9) | scripts | target |", "|:--|--:|--:|:--|"];
  for (const r of results) {
    const target = r.route === "/signings/[id]" ? `≤ ${TARGET_FIRST_LOAD_GZIP_KB} kB: ${signerPagePasses(results) ? "PASS" : "FAIL"}` : "";
    lines.push(`| \`${r.route}\` | ${kb(r.totalGzipBytes)} kB | ${r.scripts.length} | ${target} |`);
  }
  return lines.join("\n");
}
