import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ErrorBody } from "../helpers/schemas";

// A list's nextCursor is valid only for that list with the same filters: a cursor carried over to
// another list (or another filter) is refused with 400 instead of paging from a key it never had.

const Page = z.object({ data: z.array(z.object({ id: z.union([z.string(), z.number()]) })), nextCursor: z.string().nullable() });
const INVALID = "Invalid cursor. Pass the nextCursor of a previous page unchanged.";

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

async function get(path: string) {
  return callApi(path, { token: await tokenFor("manager@demo.local") });
}

async function post(path: string, json: unknown) {
  const res = await callApi(path, { method: "POST", json, token: await tokenFor("manager@demo.local") });
  expect(res.status, res.text).toBe(201);
}

async function firstCursor(path: string): Promise<string> {
  const res = await get(path);
  expect(res.status, res.text).toBe(200);
  const cursor = Page.parse(res.body).nextCursor;
  expect(cursor).not.toBeNull();
  return cursor!;
}

function expectInvalidCursor(res: { status: number; body: unknown }) {
  expect(res.status).toBe(400);
  expect(ErrorBody.parse(res.body).error).toBe(INVALID);
}

describe("list cursors are bound to their list and filters", () => {
  beforeAll(async () => {
    for (const title of ["Cursor one", "Cursor two", "Cursor three"]) {
      await post("/v1/documents", { type: "other", title, locationId: world.austin.id });
      await post("/v1/signing/manager/signings", { title, locationId: world.austin.id });
    }
  });

  it("a /v1/documents cursor given to /v1/signing/manager/signings is a 400", async () => {
    const cursor = await firstCursor("/v1/documents?limit=1");
    expect((await get(`/v1/documents?limit=1&cursor=${cursor}`)).status).toBe(200);
    expectInvalidCursor(await get(`/v1/signing/manager/signings?limit=1&cursor=${cursor}`));
  });

  it("a signings cursor given to /v1/documents is a 400", async () => {
    const cursor = await firstCursor("/v1/signing/manager/signings?limit=1");
    expect((await get(`/v1/signing/manager/signings?limit=1&cursor=${cursor}`)).status).toBe(200);
    expectInvalidCursor(await get(`/v1/documents?limit=1&cursor=${cursor}`));
  });

  it("a cursor of one filter is a 400 under another filter, and fine with a different page size", async () => {
    const cursor = await firstCursor("/v1/signing/manager/signings?limit=1&status=draft");
    expect((await get(`/v1/signing/manager/signings?limit=5&status=draft&cursor=${cursor}`)).status).toBe(200);
    expectInvalidCursor(await get(`/v1/signing/manager/signings?limit=1&cursor=${cursor}`));
    expectInvalidCursor(await get(`/v1/signing/manager/signings?limit=1&status=sent&cursor=${cursor}`));
    expectInvalidCursor(await get(`/v1/signing/manager/signings?limit=1&status=draft&q=Cursor&cursor=${cursor}`));
  });
});
