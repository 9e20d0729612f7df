import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { SIGNATURE_FONTS, type SignatureFont } from "@/lib/signature-images/signature-fonts";

const cache = new Map<SignatureFont, Promise<Uint8Array>>();

/**
 * The font file of a typed signature, from the same @fontsource package the signer's page uses,
 * so the PDF shows the face the signer saw. The packages ship WOFF (zlib) and WOFF2; fontkit reads
 * the WOFF. Read from `node_modules` under the working directory: the packages are CSS-only
 * exports, so there is no module path to resolve them by.
 */
export function signatureFontBytes(font: string): Promise<Uint8Array> {
  const name: SignatureFont = (SIGNATURE_FONTS as readonly string[]).includes(font) ? (font as SignatureFont) : "dancing-script";
  let bytes = cache.get(name);
  if (!bytes) {
    bytes = readFile(join(process.cwd(), "node_modules", "@fontsource", name, "files", `${name}-latin-400-normal.woff`)).then((b) => new Uint8Array(b));
    bytes.catch(() => cache.delete(name));
    cache.set(name, bytes);
  }
  return bytes;
}
