import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { openIncrementalPdf } from "@/lib/seals/incremental-pdf";
import { loadSealingIdentity } from "@/lib/seals/load-sealing-identity";
import { readEmbeddedSeal } from "@/lib/seals/read-embedded-seal";
import { signSealedPdf } from "@/lib/seals/sign-sealed-pdf";

// Sealing appends a revision to the original instead of re-saving it (so a large package is held
// once). These originals cover the cross-reference forms a package may arrive in; each sealed file
// must be the original's exact bytes followed by the revision, open in poppler with the new
// content, and carry a signature poppler validates over the whole file.

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "seal-incremental-"));
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

async function original(options: { objectStreams: boolean; pages?: number }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= (options.pages ?? 2); i++) doc.addPage([612, 792]).drawText(`Original page ${i}`, { x: 72, y: 700, size: 14, font });
  return doc.save({ useObjectStreams: options.objectStreams });
}

async function seal(bytes: Uint8Array, mark: string) {
  const pdf = await openIncrementalPdf(bytes);
  const font = await pdf.pdfDoc.embedFont(StandardFonts.HelveticaBold);
  pdf.pdfDoc.getPages()[0]!.drawText(`Stamped ${mark}`, { x: 72, y: 600, size: 14, font });
  pdf.pdfDoc.addPage([612, 792]).drawText(`Certificate ${mark}`, { x: 72, y: 700, size: 14, font });
  pdf.pdfDoc.setTitle(`Sealed ${mark}`);
  const sealed = await signSealedPdf(pdf, {
    identity: loadSealingIdentity(),
    reason: "test",
    location: "test",
    contactInfo: "https://example.test/verify",
    signingTime: new Date("2026-11-28T12:00:00Z"),
  });
  const file = new Uint8Array(Buffer.concat([sealed.base, sealed.update]));
  expect(file.byteLength).toBe(sealed.sizeBytes);
  expect(sha256(file)).toBe(sealed.sha256);
  return { file, base: sealed.base };
}

async function poppler(file: Uint8Array, name: string) {
  const path = join(dir, name);
  writeFileSync(path, file);
  const sig = await run("pdfsig", [path]).then(
    (r) => r.stdout,
    (e: { stdout: string; stderr: string }) => `${e.stdout}${e.stderr}`,
  );
  const text = (await run("pdftotext", ["-layout", path, "-"])).stdout;
  const pages = Number(/Pages:\s+(\d+)/.exec((await run("pdfinfo", [path])).stdout)?.[1]);
  const title = /Title:\s+(.*)/.exec((await run("pdfinfo", [path])).stdout)?.[1]?.trim();
  return { sig, text, pages, title };
}

describe("sealing by incremental update", () => {
  for (const objectStreams of [true, false]) {
    it(`keeps the original's bytes and appends a signed revision (original with ${objectStreams ? "a cross-reference stream" : "a cross-reference table"})`, async () => {
      const bytes = await original({ objectStreams });
      const { file } = await seal(bytes, "one");
      expect(sha256(file.subarray(0, bytes.byteLength))).toBe(sha256(bytes));
      const seen = await poppler(file, `xref-${objectStreams}.pdf`);
      expect(seen.sig).toMatch(/Signature Validation: Signature is Valid/);
      expect(seen.sig).toMatch(/Total document signed/);
      expect(seen.pages).toBe(3);
      expect(seen.title).toBe("Sealed one");
      expect(seen.text).toMatch(/Original page 1/);
      expect(seen.text).toMatch(/Stamped one/);
      expect(seen.text).toMatch(/Certificate one/);
      expect(readEmbeddedSeal(file)).toMatchObject({ intact: true, coversWholeFile: true });

      // One flipped byte of the original breaks the signature.
      const flipped = Buffer.from(file);
      flipped[bytes.byteLength - 40] = flipped[bytes.byteLength - 40]! ^ 0x01;
      expect(readEmbeddedSeal(flipped)).toMatchObject({ intact: false });
    });
  }

  it("seals a file that already has a revision (a second signature after the first): both are listed, the last covers the whole file", async () => {
    const first = (await seal(await original({ objectStreams: true }), "one")).file;
    const { file } = await seal(first, "two");
    expect(sha256(file.subarray(0, first.byteLength))).toBe(sha256(first));
    const seen = await poppler(file, "twice.pdf");
    expect(seen.pages).toBe(4);
    expect(seen.sig.match(/Signature is Valid/g)).toHaveLength(2);
    expect(seen.text).toMatch(/Stamped two/);
    expect(readEmbeddedSeal(file)).toMatchObject({ intact: true, coversWholeFile: true });
  });

  it("a file whose startxref leads nowhere is rewritten once, then sealed the same way", async () => {
    const bytes = Buffer.from(await original({ objectStreams: false }));
    const text = bytes.toString("latin1");
    const at = text.lastIndexOf("startxref") + "startxref\n".length;
    const damaged = Buffer.concat([bytes.subarray(0, at), Buffer.from("9".padEnd(text.indexOf("\n", at) - at, " ")), bytes.subarray(text.indexOf("\n", at))]);
    const { file, base } = await seal(damaged, "repaired");
    expect(sha256(base)).not.toBe(sha256(damaged));
    const seen = await poppler(file, "repaired.pdf");
    expect(seen.sig).toMatch(/Signature is Valid/);
    expect(seen.sig).toMatch(/Total document signed/);
    expect(seen.pages).toBe(3);
    expect(seen.text).toMatch(/Original page 2/);
  });
});
