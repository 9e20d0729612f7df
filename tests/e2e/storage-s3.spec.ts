import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { sql } from "drizzle-orm";
import sharp from "sharp";
import { openDb, type DbHandle } from "@/db/client";
import { packageSeals } from "@/db/schema";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";
import { SignPanel } from "./pages/sign-panel";
import { SigningFormPage } from "./pages/signing-form-page";
import { createJourneyDatabase } from "./support/journey-database";
import { startNextServer, type NextServer } from "./support/next-server";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test as base } from "./support/fixtures";

/**
 * Issue 30 in the browser, with S3 storage configured (s3rver, with a CORS rule as docs/deploy.md
 * gives): a 20 MB package picked in the package form goes straight to the bucket by its presigned PUT
 * (the page's CSP allows the bucket's origin) with its progress bar, the package is sent, the signer
 * signs it on the phone-sized or desktop page (the viewer streams the PDF from the bucket through the
 * app) and it seals; the sealed PDF downloads through a presigned GET; the logo form uploads to the
 * bucket too, and PostgreSQL holds no byte of any file the journey stored. On a server of its own (the shared one has no S3), on a fresh PostgreSQL database.
 */

type Storage = { server: NextServer; s3: RunningS3; db: DbHandle };

const SAM = "signer@demo.local";

const test = base.extend<{ storage: Storage }>({
  storage: async ({}, provide, testInfo) => {
    testInfo.skip(!e2eDatabaseUrl(), "needs PostgreSQL: the server gets a database beside the run's");
    const database = await createJourneyDatabase();
    const s3 = await startS3rver("documents", { corsOrigin: "*" });
    const server = await startNextServer(() => ({ DATABASE_URL: database.url, ...s3.env }));
    const db = await openDb({ url: database.url }, { max: 1 });
    try {
      await provide({ server, s3, db });
    } finally {
      if (testInfo.status !== testInfo.expectedStatus) writeFileSync(testInfo.outputPath("storage-server.log"), server.log());
      await db.close();
      await server.stop();
      await s3.stop();
      await database.drop();
    }
  },
  baseURL: async ({ storage }, provide) => {
    await provide(storage.server.baseUrl);
  },
});

test.describe.configure({ timeout: 240_000 });

/** Sum of octet_length over every bytea column: the file bytes PostgreSQL holds. */
async function databaseFileBytes(db: DbHandle["db"]): Promise<number> {
  const rows = async <T,>(query: ReturnType<typeof sql.raw>) => {
    const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
    return Array.isArray(result) ? result : result.rows;
  };
  const columns = await rows<{ table_name: string; column_name: string }>(
    sql.raw("select table_name, column_name from information_schema.columns where table_schema = 'public' and data_type = 'bytea'"),
  );
  let total = 0;
  for (const c of columns) {
    const [row] = await rows<{ n: string | number }>(sql.raw(`select coalesce(sum(octet_length("${c.column_name}")), 0)::bigint as n from "${c.table_name}"`));
    total += Number(row!.n);
  }
  return total;
}

test("a 20 MB package uploads straight to the bucket with its progress bar, is sent, signed and sealed, and the logo after it; the database gains no file bytes", async ({ page, storage }) => {
  const id = randomBytes(4).toString("hex");
  // The demo data was seeded before the server (and its S3 configuration) existed: its files are in the database already.
  const seededBytes = await databaseFileBytes(storage.db.db);
  await signInAs(page, "manager@demo.local");
  const form = await new SigningFormPage(page).gotoNew();
  await form.chooseLocation("Austin Branch");
  const title = `E2E S3 package ${id}`;
  await form.title().fill(title);
  await form.fillSigner(1, { name: "Sam Signer", email: SAM });

  const { PDFDocument } = await import("pdf-lib");
  const doc = await PDFDocument.load(await renderAgreementPdf({ title: `Loan package ${id}`, parties: ["Buyer"], pages: 2 }));
  doc.context.register(doc.context.stream(randomBytes(20 * 1024 * 1024)));
  const big = { name: "Loan package.pdf", mimeType: "application/pdf", buffer: Buffer.from(await doc.save({ useObjectStreams: false })) };
  expect(big.buffer.byteLength).toBeGreaterThan(20 * 1024 * 1024);
  const puts: { url: string; status: number }[] = [];
  page.on("requestfinished", async (request) => {
    if (request.method() === "PUT") puts.push({ url: request.url(), status: (await request.response())?.status() ?? 0 });
  });
  await form.pick(big);
  await expect(form.pickedFile("Loan package.pdf").getByRole("progressbar", { name: "Uploading Loan package.pdf" })).toBeVisible();
  await expect(form.pickedFile("Loan package.pdf")).toContainText("Ready: 2 pages", { timeout: 60_000 });
  // One PUT, to the bucket's presigned URL: the bytes never went to the app.
  expect(puts).toEqual([{ url: expect.stringMatching(new RegExp(`^${storage.s3.env.S3_ENDPOINT}/documents/uploads/[0-9a-f-]{36}\\?`)), status: 200 }]);
  await expectNoAxeViolations(page);

  await form.openSendCheck();
  await form.sendNow();
  await page.waitForURL(/\/signings\/[0-9a-f-]{36}$/);
  const packageId = new URL(page.url()).pathname.split("/")[2]!;

  // The signer signs; the viewer's PDF comes from the bucket, streamed through the app.
  await page.context().clearCookies();
  await signInAs(page, SAM);
  await page.goto(`/signings/${packageId}`);
  await page.getByRole("heading", { level: 2, name: "Sign", exact: true }).waitFor();
  const panel = new SignPanel(page);
  await panel.consent();
  await panel.openDialog();
  await panel.dialog.getByRole("radio", { name: /Great Vibes/ }).check();
  await panel.dialog.getByRole("button", { name: "Adopt signature" }).click();
  await expect(panel.dialog).toBeHidden();
  await panel.signButton("Loan package.pdf").click();
  await expect(page.getByRole("heading", { name: /^You’ve signed every document/ })).toBeVisible({ timeout: 30_000 });

  await expect
    .poll(async () => (await storage.db.db.select({ status: packageSeals.status }).from(packageSeals).where(sql`${packageSeals.packageId} = ${packageId}`))[0]?.status, {
      timeout: 60_000,
    })
    .toBe("sealed");

  await page.goto(`/signings/${packageId}/done`);
  const sealed = page.getByRole("region", { name: "Sealed documents" });
  const download = page.waitForEvent("download");
  await sealed.getByRole("link", { name: "Download sealed PDF of Loan package.pdf" }).click();
  expect((await download).suggestedFilename()).toBe("Loan package (sealed).pdf");

  // The logo form uploads straight to the bucket too, through the same field (progress, then Ready).
  await page.context().clearCookies();
  await signInAs(page, "owner@demo.local");
  await page.goto("/workspace/settings");
  const png = await sharp({ create: { width: 120, height: 40, channels: 3, background: "navy" } }).png().toBuffer();
  const before = puts.length;
  await page.getByLabel("Upload a logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
  await expect(page.getByRole("list", { name: "Files" })).toContainText("Ready");
  expect(puts.slice(before)).toEqual([{ url: expect.stringMatching(new RegExp(`^${storage.s3.env.S3_ENDPOINT}/documents/uploads/`)), status: 200 }]);
  await page.getByRole("button", { name: "Upload logo" }).click();
  await expect(page.getByRole("img", { name: "The current logo" })).toBeVisible();
  await expectNoAxeViolations(page);

  // Nothing this journey stored (the package, its seal, the logo) is in the database.
  expect(await databaseFileBytes(storage.db.db)).toBe(seededBytes);
});
