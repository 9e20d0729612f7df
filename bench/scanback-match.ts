// npx tsx bench/scanback-match.ts – how long the server takes to match a 60-page scanback.
//
// Builds a table packet for one 60-page ink document (no database: the packet and the codes are
// pure functions of the ids and AUTH_SECRET), prints it to 150 dpi greyscale images with pdftoppm
// (a scanner's output), turns every seventh page 180° and every eleventh 90°, and puts the 60 pages
// into one scan PDF of JPEGs, shuffled. Then it times what an upload does before anything is stored:
// `splitScanUploads` (the PDF rendered back to page images inside Node: pdfjs-dist on
// @napi-rs/canvas) and `readPageCode` on every page, and checks every page was matched to its page
// number. Target: ≤ 10 s. For a baseline measured in the same run (the machine may be shared), it
// also times poppler's pdftoppm rendering the same scan at the same size, and prints the ratio.
//
// A scanner writes each page as one JPEG, which the split takes as it is. Pages that must be rendered
// (a PDF printed to a file rather than scanned, or pages stored as PNG) take the slower path: the
// run then times the table packet itself uploaded as the scan (its pages rendered by pdfjs-dist at
// 200 dpi) and prints that figure too, for information; the target is the scanner's PDF.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { buildScanPdf } from "../lib/closings/attach-document-scan";
import { readPageCode } from "../lib/closings/read-page-code";
import { splitScanUploads } from "../lib/closings/scan-pages";
import { buildTablePacket } from "../lib/closings/table-packet";
import { renderAgreementPdf } from "../lib/pdf/pdf";

process.env.AUTH_SECRET ??= "bench-secret-bench-secret-bench-secret";
const PAGES = 60;
const TARGET_MS = 10_000;
const run = promisify(execFile);

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "scanback-bench-"));
  try {
    const packageId = randomUUID();
    const documentId = randomUUID();
    const content = await renderAgreementPdf({ title: "Bench note", parties: ["Borrower"], pages: PAGES });
    const packet = await buildTablePacket({
      packageId,
      title: "Bench",
      organizationName: "Bench",
      createdAt: new Date(0),
      borrowers: [{ name: "Bo Rower", email: "bo@example.test" }],
      appointment: { closingAt: null, closingPlace: null, settlementAgent: null },
      documents: [{ id: documentId, name: "Note.pdf", executionMode: "wet_sign", pageCount: PAGES, content }],
    });
    writeFileSync(join(dir, "packet.pdf"), packet);
    await run("pdftoppm", ["-r", "150", "-gray", "-png", join(dir, "packet.pdf"), join(dir, "pk")]);
    const files = readdirSync(dir).filter((f) => f.startsWith("pk-")).sort().slice(1); // without the cover
    const scans = await Promise.all(
      files.map(async (f, i) => {
        const turn = i % 7 === 3 ? 180 : i % 11 === 5 ? 90 : 0;
        return { bytes: new Uint8Array(await sharp(readFileSync(join(dir, f))).rotate(turn).jpeg({ quality: 70 }).toBuffer()), contentType: "image/jpeg" as const };
      }),
    );
    const shuffled = scans.map((s, i) => ({ s, k: (i * 37) % scans.length })).sort((a, b) => a.k - b.k).map((x) => x.s);
    const scanPdf = await buildScanPdf(shuffled);
    console.log(`scan PDF: ${PAGES} pages, ${(scanPdf.byteLength / 1024 / 1024).toFixed(1)} MiB`);

    const started = performance.now();
    const pages = await splitScanUploads([{ name: "scan.pdf", bytes: scanPdf }]);
    const split = performance.now() - started;
    const found = new Set<number>();
    for (const page of pages) {
      const reading = await readPageCode(page.bytes, page.code);
      if (reading.outcome === "read" && reading.ref.documentId === documentId) found.add(reading.ref.page);
    }
    const total = performance.now() - started;
    console.log(`split ${split.toFixed(0)} ms, split + read ${total.toFixed(0)} ms (${(total / PAGES).toFixed(0)} ms/page); matched ${found.size}/${PAGES}`);
    writeFileSync(join(dir, "scan.pdf"), scanPdf);
    const popplerStarted = performance.now();
    await run("pdftoppm", ["-jpeg", "-jpegopt", "quality=85", "-scale-to", "2200", join(dir, "scan.pdf"), join(dir, "pop")]);
    const poppler = performance.now() - popplerStarted;
    console.log(`baseline: pdftoppm split ${poppler.toFixed(0)} ms; in-Node split / pdftoppm = ${(split / poppler).toFixed(2)}; target ${TARGET_MS} ms for split + read`);

    const renderStarted = performance.now();
    const rendered = await splitScanUploads([{ name: "packet.pdf", bytes: packet }]);
    const renderSplit = performance.now() - renderStarted;
    let renderedFound = 0;
    for (const page of rendered) if ((await readPageCode(page.bytes, page.code)).outcome === "read") renderedFound++;
    const renderTotal = performance.now() - renderStarted;
    console.log(
      `pages that must be rendered (the packet PDF itself, ${rendered.length} pages): split ${renderSplit.toFixed(0)} ms, split + read ${renderTotal.toFixed(0)} ms (${(renderTotal / rendered.length).toFixed(0)} ms/page); codes read on ${renderedFound}/${rendered.length}`,
    );
    const pass = found.size === PAGES && total <= TARGET_MS;
    console.log(pass ? "PASS" : "FAIL");
    process.exitCode = pass ? 0 : 2;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
