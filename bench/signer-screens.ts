// Screenshots of every signer page in its main states, at 390 px (DPR 3) and 1280 px, for a visual review
// (docs/performance.md, "The signer's pages on a phone"). Runs against a server that is already up:
//
//   SCREENS_BASE_URL=http://127.0.0.1:4421 DATABASE_URL=postgres://…/<the server's database> \
//     npx tsx bench/signer-screens.ts [outDir]
//
// The database must be seeded (signer@demo.local / demo-signing). For each width it creates two packages
// with the same domain functions the tests use (tests/helpers/signing-fixtures.ts): one where it is the
// signer's turn, one where cosigner@demo.local signs first. It then walks the journey in headless Chromium
// (/usr/bin/chromium): before consent, after consent, signature dialog, all signed, bank step, done,
// My signatures, and the waiting screen; each screenshot is full page, and the horizontal overflow
// (scrollWidth − clientWidth) of each page is printed next to its file.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { chromium, type Page } from "playwright-core";
import { openDb } from "@/db/client";
import { locations } from "@/db/schema";
import { createSignerPackage } from "../tests/helpers/signing-fixtures";

const base = (process.env.SCREENS_BASE_URL ?? "http://127.0.0.1:4421").replace(/\/$/, "");
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL (the server's database) is required");
const outDir = process.argv[2] ?? join(process.cwd(), "bench", "results", "screens");
mkdirSync(outDir, { recursive: true });

const handle = await openDb({ url: databaseUrl }, { max: 1 });
const [austin] = await handle.db.select().from(locations).where(eq(locations.name, "Austin Branch"));
if (!austin) throw new Error("seeded location 'Austin Branch' missing");

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const report: string[] = [];

async function shot(page: Page, name: string, width: number) {
  await page.waitForTimeout(400);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  const file = join(outDir, `${width}-${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  report.push(`${file}  overflow ${overflow}px`);
}

try {
  for (const width of [390, 1280]) {
    const phone = width < 500;
    const mine = await createSignerPackage(handle.db, { location: austin, signers: [{ email: "signer@demo.local" }], documentCount: 2, title: `Screens ${width} your turn` });
    const waiting = await createSignerPackage(handle.db, {
      location: austin,
      signers: [{ email: "cosigner@demo.local", routingOrder: 1 }, { email: "signer@demo.local", routingOrder: 2 }],
      title: `Screens ${width} waiting`,
    });
    const context = await browser.newContext({ viewport: { width, height: phone ? 844 : 900 }, deviceScaleFactor: phone ? 3 : 1, isMobile: phone, hasTouch: phone });
    const page = await context.newPage();
    await page.goto(`${base}/sign-in?callbackUrl=${encodeURIComponent("/")}`);
    await page.getByLabel("Email").fill("signer@demo.local");
    await page.getByLabel("Password").fill("demo-signing");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
    await shot(page, "0-home", width);

    await page.goto(`${base}/signings/${mine.id}`);
    await page.waitForSelector("[data-first-page-painted]");
    await shot(page, "1-your-turn-before-consent", width);
    await page.getByLabel(/I have read this disclosure/).check();
    await page.getByRole("button", { name: "Agree and continue" }).click();
    await page.getByRole("heading", { name: "Your signature" }).waitFor();
    await shot(page, "2-after-consent", width);
    await page.getByRole("button", { name: "Adopt your signature" }).click();
    const dialog = page.getByRole("dialog", { name: "Adopt your signature" });
    await dialog.waitFor();
    await page.screenshot({ path: join(outDir, `${width}-3-adopt-dialog.png`) });
    await dialog.getByRole("tab", { name: "Draw" }).click();
    await page.screenshot({ path: join(outDir, `${width}-3b-adopt-dialog-draw.png`) });
    await dialog.getByRole("tab", { name: "Type" }).click();
    await dialog.getByRole("button", { name: "Adopt signature" }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Sign Document 1.pdf" }).click();
    await page.getByRole("status").filter({ hasText: "1 of 2 left" }).waitFor({ state: "attached" });
    await shot(page, "4-one-signed", width);
    await page.getByRole("button", { name: "Sign Document 2.pdf" }).click();
    // The page refreshes into its next state (the bank step) once everything is signed.
    await page.getByRole("heading", { name: /signed every document/ }).waitFor();
    await shot(page, "5-all-signed", width);
    await page.goto(`${base}/signings/${mine.id}`);
    await shot(page, "6-bank-next", width);
    await page.goto(`${base}/signings/${mine.id}/bank`);
    await shot(page, "7-bank", width);
    await page.goto(`${base}/signings/${mine.id}/done`);
    await shot(page, "8-done", width);
    await page.goto(`${base}/me/esignatures`);
    await shot(page, "9-my-signatures", width);
    await page.goto(`${base}/signings/${waiting.id}`);
    await page.waitForSelector("[data-first-page-painted]");
    await shot(page, "10-waiting", width);
    await context.close();
  }
} finally {
  await browser.close();
  await handle.close();
}
console.log(report.join("\n"));
