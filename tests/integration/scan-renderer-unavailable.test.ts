// A server whose canvas native module is missing (a deploy that skipped its platform's binary) answers
// PDF scans that need rendering with a 503 naming the cause, never a 400 blaming the file; scanner
// PDFs (one JPEG a page) need no renderer and still split.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildScanPdf } from "@/lib/closings/attach-document-scan";
import { splitScanUploads } from "@/lib/closings/scan-pages";

const root = process.cwd();
const dir = mkdtempSync(join(tmpdir(), "no-canvas-"));

beforeAll(() => {
  // The worker resolves its modules from the working directory first: here pdf-lib and pdfjs-dist are
  // the real ones and @napi-rs/canvas fails to load as it does when its binary is not installed.
  mkdirSync(join(dir, "node_modules", "@napi-rs", "canvas"), { recursive: true });
  for (const name of ["pdf-lib", "pdfjs-dist"]) symlinkSync(join(root, "node_modules", name), join(dir, "node_modules", name));
  writeFileSync(join(dir, "node_modules", "@napi-rs", "canvas", "package.json"), JSON.stringify({ name: "@napi-rs/canvas", version: "0.0.0", main: "index.js" }));
  writeFileSync(join(dir, "node_modules", "@napi-rs", "canvas", "index.js"), `throw new Error("Cannot find module '@napi-rs/canvas-linux-x64-gnu'");\n`);
  process.chdir(dir);
});

afterAll(() => {
  process.chdir(root);
  rmSync(dir, { recursive: true, force: true });
});

describe("scan PDFs without the canvas binary", () => {
  it("answers 503 with the cause for a page that must be rendered", async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    doc.addPage([612, 792]).drawText("printed, not scanned", { x: 72, y: 700, size: 24, font });
    const error = await splitScanUploads([{ name: "printed.pdf", bytes: await doc.save() }], { owner: "org-a" }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect((error as Error).message).toMatch(/cannot render PDF scans.*renderer could not be loaded/);
  }, 60_000);

  it("still splits a scanner's PDF, whose pages are JPEGs taken as they are", async () => {
    const page = new Uint8Array(await sharp({ create: { width: 850, height: 1100, channels: 3, background: "white" } }).jpeg().toBuffer());
    const pages = await splitScanUploads([{ name: "scan.pdf", bytes: await buildScanPdf([{ bytes: page, contentType: "image/jpeg" }, { bytes: page, contentType: "image/jpeg" }]) }], {
      owner: "org-a",
    });
    expect(pages.map((p) => [p.sourcePage, p.contentType])).toEqual([
      [1, "image/jpeg"],
      [2, "image/jpeg"],
    ]);
    expect(Buffer.from(pages[0]!.bytes).equals(Buffer.from(page))).toBe(true);
  }, 60_000);
});
