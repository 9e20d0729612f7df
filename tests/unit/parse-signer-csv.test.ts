import { describe, expect, it } from "vitest";
import { parseSignerCsv } from "@/lib/signings/parse-signer-csv";

const REQUIRED = ["name", "email", "location"] as const;

describe("parseSignerCsv", () => {
  it("reads quoted cells with commas, escaped quotes and line breaks, CRLF, a BOM and blank lines", () => {
    const text = '\uFEFFName,Email,Location\r\n"Doe, Jane",jane@example.com,"Austin ""North"""\r\n\r\n"Multi\nLine",m@example.com,Dallas\r\n';
    expect(parseSignerCsv(text, REQUIRED)).toEqual({
      columns: ["name", "email", "location"],
      rows: [
        { line: 2, cells: { name: "Doe, Jane", email: "jane@example.com", location: 'Austin "North"' } },
        { line: 4, cells: { name: "Multi\nLine", email: "m@example.com", location: "Dallas" } },
      ],
    });
  });

  it("fills missing trailing cells with empty strings and trims cells", () => {
    expect(parseSignerCsv("name,email,location,package\n  Ann , ann@example.com ,Austin\n", REQUIRED).rows).toEqual([
      { line: 2, cells: { name: "Ann", email: "ann@example.com", location: "Austin", package: "" } },
    ]);
  });

  it("refuses an unterminated quote, a missing column, a header alone and an empty file", () => {
    expect(() => parseSignerCsv('name,email,location\n"Open,a@example.com,Austin\n', REQUIRED)).toThrow(
      "The CSV has a quote opened on line 2 that is never closed.",
    );
    expect(() => parseSignerCsv("name,location\nA,B\n", REQUIRED)).toThrow("missing: email.");
    expect(() => parseSignerCsv("name,email,location\n", REQUIRED)).toThrow("The CSV has a header but no rows.");
    expect(() => parseSignerCsv("  \n", REQUIRED)).toThrow("The CSV is empty.");
  });

  it("refuses more than 500 rows", () => {
    const text = "name,email,location\n" + "A,a@example.com,Austin\n".repeat(501);
    expect(() => parseSignerCsv(text, REQUIRED)).toThrow("The CSV has 501 rows; a bulk run takes at most 500.");
  });
});
