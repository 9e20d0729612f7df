import { AppError, BadRequest } from "@/lib/errors";

/** Largest CSV a bulk run accepts, and its most data rows. */
export const MAX_SIGNER_CSV_BYTES = 1024 * 1024;
export const MAX_SIGNER_CSV_ROWS = 500;

export type SignerCsvRow = {
  /** Line of the row in the file (the header is line 1), for the report. */
  line: number;
  cells: Record<string, string>;
};

/**
 * Parses the bulk CSV (RFC 4180: commas, double-quoted cells with "" escapes, CRLF or LF) into rows
 * keyed by the header's lower-cased column names. Blank lines are skipped. 413 over the size cap,
 * 400 for an unterminated quote, a missing header column or too many rows.
 */
export function parseSignerCsv(text: string, required: readonly string[]): { columns: string[]; rows: SignerCsvRow[] } {
  if (Buffer.byteLength(text, "utf8") > MAX_SIGNER_CSV_BYTES) {
    throw new AppError("payload_too_large", `The CSV exceeds the ${MAX_SIGNER_CSV_BYTES / 1024 / 1024} MiB limit.`);
  }
  const records: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  const source = text.replace(/^\uFEFF/, "");
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0]!.trim() !== "") records.push({ line: recordLine, cells });
    cells = [];
    cell = "";
  };
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (quoted) {
      if (ch === '"' && source[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        if (ch === "\n") line++;
        cell += ch;
      }
    } else if (ch === '"' && cell.trim() === "") {
      quoted = true;
      cell = "";
    } else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && source[i + 1] === "\n") i++;
      endRecord();
      line++;
      recordLine = line;
    } else {
      cell += ch;
    }
  }
  if (quoted) throw BadRequest(`The CSV has a quote opened on line ${recordLine} that is never closed.`);
  endRecord();

  const [header, ...data] = records;
  if (!header) throw BadRequest(`The CSV is empty. Its first line names the columns: ${required.join(", ")}.`);
  const columns = header.cells.map((c) => c.trim().toLowerCase());
  const missing = required.filter((c) => !columns.includes(c));
  if (missing.length > 0) {
    throw BadRequest(`The CSV's first line must name the columns ${required.join(", ")}; missing: ${missing.join(", ")}.`);
  }
  if (data.length === 0) throw BadRequest("The CSV has a header but no rows.");
  if (data.length > MAX_SIGNER_CSV_ROWS) throw BadRequest(`The CSV has ${data.length} rows; a bulk run takes at most ${MAX_SIGNER_CSV_ROWS}.`);
  return {
    columns,
    rows: data.map((record) => ({
      line: record.line,
      cells: Object.fromEntries(columns.map((column, i) => [column, (record.cells[i] ?? "").trim()])),
    })),
  };
}
