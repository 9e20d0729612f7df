/** `inline` or `attachment` with an ASCII `filename` fallback and the RFC 6266/5987 UTF-8 `filename*`, which carries any name safely. */
export function contentDisposition(type: "inline" | "attachment", fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
