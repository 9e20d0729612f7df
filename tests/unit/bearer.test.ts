import { describe, expect, it } from "vitest";
import { parseBearer } from "@/lib/auth/verify-access-token";
import { AppError } from "@/lib/errors";

function failure(header: string | null) {
  try {
    parseBearer(header);
  } catch (error) {
    return error instanceof AppError ? [error.status, error.message] : error;
  }
  return "no error";
}

describe("parseBearer", () => {
  it("returns the token", () => {
    expect(parseBearer("Bearer abc.def.ghi")).toBe("abc.def.ghi");
    expect(parseBearer("  bearer   abc  ")).toBe("abc");
  });
  it.each([null, "", "Basic abc", "Token abc", "Bearerabc"])("missing for %j", (header) => {
    expect(failure(header)).toEqual([401, "Missing Authorization Bearer token."]);
  });
  it.each(["Bearer", "Bearer ", "Bearer \t "])("empty for %j", (header) => {
    expect(failure(header)).toEqual([401, "Empty bearer token."]);
  });
});
