export type SniffedFileType = { contentType: "application/pdf" | "image/png" | "image/jpeg"; extension: "pdf" | "png" | "jpg" };

const SIGNATURES: { bytes: number[]; type: SniffedFileType }[] = [
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], type: { contentType: "application/pdf", extension: "pdf" } }, // %PDF-
  { bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], type: { contentType: "image/png", extension: "png" } },
  { bytes: [0xff, 0xd8, 0xff], type: { contentType: "image/jpeg", extension: "jpg" } },
];

/** The file type from its leading magic bytes; the client's Content-Type is never trusted. */
export function sniffFileType(bytes: Uint8Array): SniffedFileType | null {
  const match = SIGNATURES.find((s) => s.bytes.length <= bytes.length && s.bytes.every((b, i) => bytes[i] === b));
  return match?.type ?? null;
}

/** The media types a chattel document's file may have (a direct upload declares one of them). */
export const CHATTEL_FILE_TYPES = ["application/pdf", "image/png", "image/jpeg"] as const;
