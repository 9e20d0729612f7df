import { constants, deflateRawSync } from "node:zlib";

/**
 * A PDF whose one object stream (`/Type /ObjStm`, which pdf-lib inflates on load) is `blocks` copies
 * of the raw-deflate encoding of `blockMiB` MiB of zeros: about 1000:1, so 48 blocks of 64 MiB are a
 * ~3 MB file that inflates to 3 GiB. Built without ever holding the inflated bytes: consecutive
 * sync-flushed deflate blocks of zeros are a valid stream of more zeros.
 */
export function pdfBomb(options: { blocks: number; blockMiB?: number } = { blocks: 48 }): Uint8Array {
  const blockBytes = (options.blockMiB ?? 64) * 1024 * 1024;
  const block = deflateRawSync(Buffer.alloc(blockBytes), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const total = blockBytes * options.blocks;
  // Adler-32 of `total` zero bytes: a stays 1, b adds 1 per byte.
  const adler = Buffer.alloc(4);
  adler.writeUInt16BE(total % 65521, 0);
  adler.writeUInt16BE(1, 2);
  const stream = Buffer.concat([Buffer.from([0x78, 0xda]), ...Array.from({ length: options.blocks }, () => block), Buffer.from([0x03, 0x00]), adler]);
  const head = Buffer.from(
    "%PDF-1.7\n" +
      "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
      "2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
      "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n" +
      `4 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${stream.length} >>\nstream\n`,
    "latin1",
  );
  const tail = Buffer.from("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R /Size 5 >>\n%%EOF\n", "latin1");
  return new Uint8Array(Buffer.concat([head, stream, tail]));
}
