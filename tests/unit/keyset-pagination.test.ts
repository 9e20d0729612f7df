import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { serializePage } from "@/lib/api/serialize-page";
import { closeWindow, openWindow } from "@/lib/pagination/capped-window";
import { cursorBinding, decodeCursor, decodeKeyCursor, encodeCursor } from "@/lib/pagination/keyset-cursor";
import { toKeysetPage } from "@/lib/pagination/keyset-page";
import { AppError } from "@/lib/errors";

/** The binding of a list named "things" without filters, written out. */
const THINGS = '["things",[]]';
/**
 * The cursor format, written out: base64url JSON, ".", the first 16 bytes of
 * HMAC-SHA256("cursor:" + binding + "\n" + payload) under AUTH_SECRET.
 */
const cursorOf = (json: string, binding = THINGS) => {
  const payload = Buffer.from(json).toString("base64url");
  const tag = createHmac("sha256", process.env.AUTH_SECRET!).update(`cursor:${binding}\n${payload}`).digest().subarray(0, 16).toString("base64url");
  return `${payload}.${tag}`;
};
const unsigned = (json: string) => Buffer.from(json).toString("base64url");

describe("keyset cursors (lib/db)", () => {
  it("is base64url JSON of the sort key with a MAC under AUTH_SECRET", () => {
    expect(encodeCursor(["0193", 7], THINGS)).toBe(cursorOf('["0193",7]'));
    expect(decodeCursor(cursorOf('["0193",7]'), z.tuple([z.string(), z.number()]), THINGS)).toEqual(["0193", 7]);
    expect(decodeKeyCursor(cursorOf("[42]"), z.number().int(), THINGS)).toBe(42);
    expect(decodeKeyCursor(undefined, z.number().int(), THINGS)).toBeNull();
  });

  it("binds the list's name and its row-selecting options in a stable order, not the page size or the caller", () => {
    expect(cursorBinding("things", { principal: {}, limit: 5, cursor: "c", cap: 3 })).toBe(THINGS);
    expect(cursorBinding("things", { status: "sent", companyId: 4, q: undefined, locationId: null, createdTo: "" })).toBe(
      '["things",[["companyId",4],["status","sent"]]]',
    );
    expect(cursorBinding("things", { status: "sent", companyId: 4 })).toBe(cursorBinding("things", { companyId: 4, status: "sent" }));
  });

  it.each([
    ["not base64 json", "%%%"],
    ["wrong shape", cursorOf('["x"]')],
    ["extra values", cursorOf("[1,2]")],
    ["unsigned (the old format)", unsigned("[42]")],
    ["re-signed by someone without the secret", `${unsigned("[42]")}.${createHmac("sha256", "guess").update(`cursor:${unsigned("[42]")}`).digest().subarray(0, 16).toString("base64url")}`],
    ["edited: the served count of a capped list reset to 0", `${unsigned("[42,0]")}.${cursorOf("[42,500]").split(".")[1]}`],
    ["a MAC with a trailing part", `${cursorOf("[42]")}.x`],
    ["made for another list", cursorOf("[42]", '["others",[]]')],
    ["made for the same list with another filter", cursorOf("[42]", '["things",[["status","sent"]]]')],
  ])(
    "a cursor that is %s is a bad_request domain error",
    (_, cursor) => {
      let error: unknown;
      try {
        decodeKeyCursor(cursor, z.number().int(), THINGS);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: "bad_request", message: "Invalid cursor. Pass the nextCursor of a previous page unchanged." });
    },
  );
});

describe("toKeysetPage", () => {
  const rows = [{ id: 1 }, { id: 2 }, { id: 3 }];

  it("returns the rows themselves, and a cursor to the last one when a further row was fetched", () => {
    const page = toKeysetPage(rows, 2, (r) => [r.id], THINGS);
    expect(page.rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect(page.rows[0]).toBe(rows[0]);
    expect(page.nextCursor).toBe(cursorOf("[2]"));
    expect(page).not.toHaveProperty("data");
  });

  it("has no next cursor on the last page", () => {
    expect(toKeysetPage(rows, 3, (r) => [r.id], THINGS)).toEqual({ rows, nextCursor: null });
    expect(toKeysetPage([], 3, () => [0], THINGS)).toEqual({ rows: [], nextCursor: null });
  });
});

describe("capped windows (admin read cap)", () => {
  const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ({ id: from + i }));

  it("without a cap, pages by the limit and carries the served count", () => {
    const window = openWindow("things", { limit: 2, cap: null }, z.number().int());
    expect(window).toEqual({ after: null, take: 2, served: 0, binding: THINGS });
    const page = closeWindow(ids(1, 3), window, null, (r) => r.id);
    expect(page).toEqual({ rows: ids(1, 2), nextCursor: cursorOf("[2,2]") });
    expect(page).not.toHaveProperty("cap");
  });

  it("with cap 3 and limit 2, the second page holds one row and ends the list", () => {
    const first = closeWindow(ids(1, 3), openWindow("things", { limit: 2, cap: 3 }, z.number().int()), 3, (r) => r.id);
    expect(first).toEqual({ rows: ids(1, 2), nextCursor: cursorOf("[2,2]"), cap: 3 });

    const second = openWindow("things", { limit: 2, cursor: first.nextCursor!, cap: 3 }, z.number().int());
    expect(second).toEqual({ after: 2, take: 1, served: 2, binding: THINGS });
    // More rows exist (4 and 5 were fetched), but the cap is reached.
    expect(closeWindow(ids(3, 5), second, 3, (r) => r.id)).toEqual({ rows: [{ id: 3 }], nextCursor: null, cap: 3 });
  });

  it("a cursor claiming the cap was already served takes nothing", () => {
    expect(openWindow("things", { limit: 25, cursor: cursorOf("[9,3]"), cap: 3 }, z.number().int())).toEqual({ after: 9, take: 0, served: 3, binding: THINGS });
  });

  it("a cursor without the served count is a bad_request", () => {
    expect(() => openWindow("things", { limit: 2, cursor: cursorOf("[9]"), cap: null }, z.number().int())).toThrow(/Invalid cursor/);
  });
});

describe("serializePage (lib/api)", () => {
  it("maps rows to data and keeps nextCursor, cap and any extra fields in order", () => {
    const json = serializePage({ rows: [{ n: 1 }, { n: 2 }], nextCursor: "c", cap: 5, verified: true }, (r) => ({ value: r.n * 10 }));
    expect(json).toEqual({ data: [{ value: 10 }, { value: 20 }], nextCursor: "c", cap: 5, verified: true });
    expect(Object.keys(json)).toEqual(["data", "nextCursor", "cap", "verified"]);
  });
});
