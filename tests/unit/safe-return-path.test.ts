import { describe, expect, it } from "vitest";
import { safeReturnPath } from "@/lib/auth/safe-return-path";

describe("safeReturnPath", () => {
  it.each([
    ["/settings/api-keys", "/settings/api-keys"],
    ["/signings/abc?tab=documents#signers", "/signings/abc?tab=documents#signers"],
    ["/", "/"],
    ["/a\\b", "/a/b"],
    ["/é", "/%C3%A9"],
    ["/%", "/%"],
    ["/x/../y", "/y"],
  ])("keeps the same-origin path %j as %j", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });

  it.each([
    "//evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    "https://evil.example",
    "http:/evil.example",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " /settings",
    "/settings\u0000",
    "\u0000",
    "/a\u001fb",
    "evil.example",
    "",
    `/${"a".repeat(5000)}`,
  ])("turns %j into /", (input) => {
    expect(safeReturnPath(input)).toBe("/");
  });

  it("takes the first of repeated parameters and refuses non-strings", () => {
    expect(safeReturnPath(["/first", "/second"])).toBe("/first");
    expect(safeReturnPath(["//evil.example", "/second"])).toBe("/");
    expect(safeReturnPath(undefined)).toBe("/");
    expect(safeReturnPath(42)).toBe("/");
  });
});
