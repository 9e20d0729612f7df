import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
let dir: string | undefined;

/** Writes the PDF to a scratch file named by its hash and returns the path (Poppler's tools read files). */
function scratchFile(bytes: Uint8Array): string {
  dir ??= mkdtempSync(join(tmpdir(), "pdf-text-"));
  const file = join(dir, `${createHash("sha256").update(bytes).digest("hex")}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

/** The PDF's text as Poppler's `pdftotext -layout` extracts it, one string per page. */
export async function pdfTextPages(bytes: Uint8Array): Promise<string[]> {
  const { stdout } = await run("pdftotext", ["-layout", scratchFile(bytes), "-"]);
  return stdout.split("\f").filter((page, i, all) => i < all.length - 1 || page.trim() !== "");
}

/** The PDF's whole text with runs of white space folded to one space, for matching sentences that wrap. */
export async function pdfTextFlat(bytes: Uint8Array): Promise<string> {
  const { stdout } = await run("pdftotext", [scratchFile(bytes), "-"]);
  return stdout.replace(/\s+/g, " ");
}
