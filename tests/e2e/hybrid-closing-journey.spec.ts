import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { packageSeals } from "@/db/schema";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { FieldEditorPage } from "./pages/field-editor-page";
import { SignPanel } from "./pages/sign-panel";
import { SigningFormPage } from "./pages/signing-form-page";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { withE2eDb } from "./support/signing-data";

/**
 * Issue 20's journey, in the browser from the manager's form to the sealed file: a hybrid package
 * (two `esign` documents, one `wet_sign` of four pages, one `review_only`) made in `/signings/new`,
 * its modes and appointment set on the draft's Closing page, signature fields placed on the e-sign
 * documents, sent; the borrower e-signs both and acknowledges the booklet; the manager downloads the
 * table packet, which the test prints to images (`pdftoppm`), turns one page upside down with noise
 * and skews another 2° (ImageMagick), and uploads in two shuffled parts with one page left out; the
 * report names the missing page; the page is uploaded again, the scan attached and accepted; the
 * package completes, the job runner seals it, and `pdfsig` verifies the sealed note holding the four
 * scanned pages, whose certificate names every document's execution mode and who accepted the scan.
 */

const MANAGER = { email: "manager@demo.local", name: "Max Manager" };
const BORROWER = { email: "signer@demo.local", name: "Sam Signer" };
const run = promisify(execFile);

// Four to eight minutes on a loaded two-core machine (sealing waits for the job runner).
test.describe.configure({ timeout: 900_000 });

async function pdfFile(name: string, title: string, pages: number) {
  return { name, mimeType: "application/pdf", buffer: Buffer.from(await renderAgreementPdf({ title, parties: [BORROWER.name], pages })) };
}

async function text(pdf: string, page?: number): Promise<string> {
  const range = page ? ["-f", String(page), "-l", String(page)] : [];
  return (await run("pdftotext", ["-layout", ...range, pdf, "-"])).stdout;
}

async function pageCount(pdf: string): Promise<number> {
  const { stdout } = await run("pdfinfo", [pdf]);
  return Number(/^Pages:\s+(\d+)$/m.exec(stdout)![1]);
}

/** Saves what a click on `link` downloads under `name` in the test's output directory. */
async function download(page: Page, click: () => Promise<void>, name: string): Promise<string> {
  const downloading = page.waitForEvent("download");
  await click();
  const path = test.info().outputPath(name);
  await (await downloading).saveAs(path);
  return path;
}

/** Uploads scans on the Closing page and waits for the answer in the upload form's live region. */
async function uploadScans(page: Page, files: string[]): Promise<void> {
  const form = page.locator("form").filter({ has: page.getByLabel("Scanned files") });
  await page.getByLabel("Scanned files").setInputFiles(files);
  await page.getByRole("button", { name: "Upload and check" }).click();
  await expect(form.getByText(/^Read \d+ pages?: /)).toBeVisible({ timeout: 120_000 });
}

test("a hybrid closing from the manager's form to a sealed file holding the ink-signed scans", { tag: "@desktop" }, async ({ page, browser }, testInfo) => {
  test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to follow the seal (PGlite is held by the server)");
  const title = `Hybrid journey ${Date.now().toString(36)}`;
  await page.setViewportSize({ width: 1280, height: 1000 });

  // 1. The manager's form: one borrower, four documents.
  await signInAs(page, MANAGER.email);
  const form = await new SigningFormPage(page).gotoNew();
  await form.chooseLocation("Austin Branch");
  await form.title().fill(title);
  await form.fillSigner(1, { name: BORROWER.name, email: BORROWER.email });
  const documents = [
    await pdfFile("Disclosure.pdf", "Loan estimate disclosure", 1),
    await pdfFile("Privacy notice.pdf", "Privacy notice", 1),
    await pdfFile("Note.pdf", "Promissory note", 4),
    await pdfFile("Booklet.pdf", "Home loan toolkit", 1),
  ];
  for (const file of documents) {
    await form.pick(file);
    await expect(form.pickedFile(file.name)).toContainText("Ready");
  }
  await form.saveDraft();
  await expect(page).toHaveURL(/\/signings\/[0-9a-f-]{36}\/edit\?saved=1$/);
  const id = /\/signings\/([0-9a-f-]{36})\/edit/.exec(page.url())![1]!;
  await expect(form.attachedDocuments()).toHaveText([/Disclosure\.pdf/, /Privacy notice\.pdf/, /Note\.pdf/, /Booklet\.pdf/]);

  // 2. The draft's Closing page: how each document is signed, and the appointment.
  await page.goto(`/signings/${id}`);
  await page.getByRole("link", { name: "Set how each document is signed and the appointment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Closing" })).toBeVisible();
  await page.getByLabel("Note.pdf").selectOption({ label: "Signed in ink at the table" });
  await page.getByLabel("Booklet.pdf").selectOption({ label: "Only to read (acknowledged)" });
  await page.getByRole("button", { name: "Save how documents are signed" }).click();
  await expect(page.getByText("Saved how 2 documents are signed.")).toBeVisible();
  await expect(page.getByTestId("closing-summary")).toHaveText("2 to e-sign · 1 at the table · 1 to read");
  await page.getByLabel("Closing date and time (UTC)").fill("2026-12-01T15:00");
  await page.getByLabel("Place").fill("Title office, 1 Main St, Austin");
  await page.getByLabel("Settlement agent").fill("Sam Agent");
  await page.getByRole("button", { name: "Save appointment" }).click();
  await expect(page.getByText("Appointment saved.")).toBeVisible();

  // 3. A signature field for the borrower on each e-sign document (the field editor's palette).
  await page.goto(`/signings/${id}/fields`);
  const editor = new FieldEditorPage(page);
  await editor.heading.waitFor();
  for (const name of ["Disclosure.pdf", "Privacy notice.pdf"]) {
    const tab = page.getByRole("tablist", { name: "Documents in this package" }).getByRole("tab").filter({ hasText: name });
    await tab.click();
    await expect(tab).toHaveAttribute("aria-selected", "true");
    await editor.pageSurface(1).waitFor();
    await editor.dragOnto("Signature", 1, { x: 80, y: 320 });
    await expect(editor.field(`Signature for ${BORROWER.name}, page 1`)).toBeVisible();
    await expect(tab).toContainText("1 fields, unsaved");
    await editor.save(name).click();
    // Clean again only once the save succeeded.
    await expect(tab).toContainText("1 fields");
    await expect(tab).not.toContainText("unsaved");
  }

  // 4. Sent from the form's send check.
  await page.goto(`/signings/${id}/edit`);
  await form.openSendCheck();
  await form.sendNow();
  await expect(page).toHaveURL(new RegExp(`/signings/${id}$`));
  await expect(page.getByTestId("closing-summary-line")).toContainText("2 to e-sign · 1 at the table · 1 to read");

  // 5. The borrower e-signs the two e-sign documents and acknowledges the booklet.
  const borrowerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const borrower = await borrowerContext.newPage();
    await signInAs(borrower, BORROWER.email, { landsOn: `/signings/${id}` });
    const plan = borrower.getByTestId("closing-plan");
    await expect(plan).toContainText("Signed in ink at the closing table");
    await expect(plan).toContainText("Note.pdf");
    const panel = new SignPanel(borrower);
    await panel.consent();
    await panel.adoptTyped(BORROWER.name, "Caveat");
    for (const name of ["Disclosure.pdf", "Privacy notice.pdf"]) {
      await panel.signButton(name).click();
      await expect(panel.signButton(name)).toHaveCount(0);
    }
    // Everything e-signed: the flow's bank step is next, and the booklet still to acknowledge there.
    await expect(panel.allSigned).toBeVisible();
    await expect(plan).toContainText("Disclosure.pdf — e-signed");
    await plan.getByRole("button", { name: /I received it\s*:\s*Booklet\.pdf/ }).click();
    await expect(plan).toContainText("Booklet.pdf — you confirmed you received it");
    await borrower.screenshot({ path: testInfo.outputPath("borrower-all-signed-1280.png"), fullPage: true });
    await borrower.setViewportSize({ width: 390, height: 844 });
    await expect(plan).toBeVisible();
    expect(await borrower.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await borrower.screenshot({ path: testInfo.outputPath("borrower-all-signed-390.png"), fullPage: true });
  } finally {
    await borrowerContext.close();
  }

  // 6. The manager downloads the table packet: the cover sheet and the four ink pages.
  await page.goto(`/signings/${id}/closing`);
  await expect(page.getByTestId("closing-summary")).toHaveText("2 e-signed · 1 at the table · 1 acknowledged");
  const packet = await download(page, () => page.getByRole("link", { name: "Download the table packet (PDF)" }).click(), "packet.pdf");
  expect(await pageCount(packet)).toBe(5);
  const cover = await text(packet, 1);
  expect(cover).toContain("Table packet");
  expect(cover).toContain(title);
  expect(cover).toContain("Settlement agent: Sam Agent");
  expect(cover).toMatch(/Note\.pdf .? 4 pages .? sign in ink at the table .? in this packet/);
  for (let n = 1; n <= 4; n++) expect(await text(packet, n + 1)).toMatch(new RegExp(`Note\\.pdf .? page ${n} of 4`));

  // 7. Printed, signed and scanned: 150 dpi, page 3 upside down with noise, page 1 skewed 2°.
  const scans = await mkdtemp(join(tmpdir(), "e2e-hybrid-"));
  await run("pdftoppm", ["-r", "150", "-gray", "-png", packet, join(scans, "pk")]);
  const printed = (await readdir(scans)).filter((f) => f.startsWith("pk-")).sort();
  expect(printed).toHaveLength(5);
  const notePage = (n: number) => join(scans, printed[n]!); // printed[0] is the cover sheet
  const scan = (name: string) => join(scans, name);
  await run("convert", [notePage(3), "-rotate", "180", "-attenuate", "0.3", "+noise", "Gaussian", scan("scan-0003.png")]);
  await run("convert", [notePage(1), "-background", "white", "-rotate", "2", "+repage", scan("scan-0001.png")]);
  await copyFile(notePage(2), scan("scan-0002.png"));
  await copyFile(notePage(4), scan("scan-0004.png"));

  // First part (pages 3 and 1, in that order): both matched, pages 2 and 4 missing.
  await uploadScans(page, [scan("scan-0003.png"), scan("scan-0001.png")]);
  await expect(page.getByText("Read 2 pages: 2 matched. Check the report below, then attach.")).toBeVisible();
  await expect(page.getByTestId("scanback-documents")).toHaveText("Note.pdf: 2 of 4 pages · missing pages 2, 4");
  const rows = page.getByTestId("scanback-page");
  await expect(rows.filter({ hasText: "scan-0003.png" })).toContainText("MatchedNote.pdf, page 3");
  await expect(rows.filter({ hasText: "scan-0001.png" })).toContainText("MatchedNote.pdf, page 1");
  await expectNoAxeViolations(page);

  // Second part (page 4): page 2 was left out and is reported missing.
  await uploadScans(page, [scan("scan-0004.png")]);
  await expect(page.getByText("Read 1 page: 1 matched. Check the report below, then attach.")).toBeVisible();
  await expect(page.getByTestId("scanback-documents")).toHaveText("Note.pdf: 3 of 4 pages · missing page 2");
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole("button", { name: "Attach complete documents" })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("closing-missing-page-1280.png"), fullPage: true });

  // The missing page, uploaded again: the note is complete, attached, then accepted.
  await uploadScans(page, [scan("scan-0002.png")]);
  await expect(page.getByTestId("scanback-documents")).toHaveText("Note.pdf: 4 of 4 pages · ready to attach");
  await expect(rows).toHaveCount(4);
  for (let n = 1; n <= 4; n++) await expect(rows.filter({ hasText: `Note.pdf, page ${n}` })).toHaveCount(1);
  await page.getByRole("button", { name: "Attach complete documents" }).click();
  await expect(page.getByTestId("scanback-documents")).toHaveText("Note.pdf: scan attached", { timeout: 60_000 });
  await expect(page.getByTestId("closing-summary")).toHaveText("2 e-signed · 1 scan to review · 1 acknowledged");
  await page.getByRole("button", { name: "Accept scan of Note.pdf" }).click();
  await expect(page.getByTestId("closing-complete")).toContainText("The package is complete", { timeout: 60_000 });
  await expect(page.getByTestId("closing-summary")).toHaveText("2 e-signed · 1 scan accepted · 1 acknowledged");
  await expect(page.getByTestId("closing-document").filter({ hasText: "Note.pdf" })).toContainText(`Scan accepted by ${MANAGER.name}`);
  await page.screenshot({ path: testInfo.outputPath("closing-complete-1280.png"), fullPage: true });

  // 8. The job runner seals it (generous: a loaded two-core machine).
  await expect
    .poll(async () => withE2eDb(async (db) => (await db.select({ s: packageSeals.status }).from(packageSeals).where(eq(packageSeals.packageId, id)))[0]?.s), {
      timeout: 240_000,
      intervals: [1_000, 2_000, 5_000],
    })
    .toBe("sealed");
  await page.goto(`/signings/${id}`);
  const sealedDownloads = page.getByTestId("sealed-downloads");
  await expect(sealedDownloads.getByRole("link", { name: "Download sealed PDF of Note.pdf" })).toBeVisible();
  // The audit trail names the closing's steps.
  const audit = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Browser" }) });
  for (const action of ["How the document is signed changed", "Receipt acknowledged", "Scans uploaded", "Scan attached", "Scan accepted", "Package completed"]) {
    await expect(audit.getByRole("row").filter({ hasText: action }).first()).toBeVisible();
  }
  await page.screenshot({ path: testInfo.outputPath("package-completed-1280.png"), fullPage: true });

  const sealed = await download(page, () => sealedDownloads.getByRole("link", { name: "Download sealed PDF of Note.pdf" }).click(), "note-sealed.pdf");
  const verified = (await run("pdfsig", [sealed]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }))).stdout;
  expect(verified).toContain("Signature Validation: Signature is Valid.");
  expect(verified).toContain("Total document signed");
  // The four scanned pages, each an image, then the certificate.
  const pages = await pageCount(sealed);
  expect(pages).toBeGreaterThan(4);
  const images = (await run("pdfimages", ["-list", "-f", "1", "-l", "4", sealed])).stdout.trim().split("\n").slice(2);
  expect(images.map((line) => Number(line.trim().split(/\s+/)[0])).sort()).toEqual([1, 2, 3, 4]);
  const certificate = await text(sealed);
  expect(certificate).toContain("Certificate of completion");
  // Each document's own entry (up to the next document's name) says how it was executed.
  const executed = (name: string, how: string) => new RegExp(`${name.replace(".", "\\.")}(?:(?!\\.pdf)[\\s\\S])*?Execution: ${how.replace(/[()]/g, "\\$&")}`);
  expect(certificate).toMatch(executed("Disclosure.pdf", "e-signed"));
  expect(certificate).toMatch(executed("Privacy notice.pdf", "e-signed"));
  expect(certificate).toMatch(executed("Note.pdf", "signed in ink at the closing table (scanned back)"));
  expect(certificate).toMatch(executed("Booklet.pdf", "review only (receipt acknowledged)"));
  expect(certificate).toMatch(new RegExp(`Scan of 4 pages accepted by ${MANAGER.name} <${MANAGER.email}>`));
  expect(certificate).toMatch(new RegExp(`Booklet\\.pdf(?:(?!\\.pdf)[\\s\\S])*?Receipt confirmed by ${BORROWER.name} <${BORROWER.email}>`));
});
