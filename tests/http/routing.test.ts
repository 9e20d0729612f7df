import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "@/db/client";
import { setDbHandle } from "@/lib/db/process-db";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld } from "../helpers/fixtures";
import { ERROR_REASON_VALUES } from "../helpers/schemas";
import { ErrorBody } from "../helpers/schemas";

let testDb: TestDb;
let token: string;

beforeAll(async () => {
  testDb = await createTestDb();
  await loadDemoWorld(testDb.db);
  token = await tokenFor("manager@demo.local");
});
afterAll(() => testDb.cleanup());

describe("JSON for unknown paths and wrong methods", () => {
  it.each(["/v1/nope", "/v1/signing", "/v1/signing/session/extra", "/v1/signing/manager/signings/x/y/z"])(
    "404 JSON for %s",
    async (path) => {
      const res = await callApi(path, { token });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.body).toEqual({ error: expect.stringContaining(path) });
    },
  );

  it("404 JSON outside /v1 too", async () => {
    const res = await callApi("/not-here");
    expect(res.status).toBe(404);
    expect(ErrorBody.safeParse(res.body).success, JSON.stringify(res.body)).toBe(true);
  });

  it.each([
    ["POST", "/v1/signing/session", "GET, HEAD"],
    ["DELETE", "/v1/signing/session", "GET, HEAD"],
    ["DELETE", "/v1/signing/manager/signings", "GET, HEAD, POST"],
    ["PUT", "/v1/signing/manager/signings", "GET, HEAD, POST"],
    ["POST", "/health", "GET, HEAD"],
  ])("405 JSON with Allow for %s %s", async (method, path, allow) => {
    const res = await callApi(path, { method, token });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe(allow);
    expect(res.body).toEqual({ error: expect.stringContaining(allow) });
  });
});

describe("GET /v1/openapi.json", () => {
  it("documents the operations from the same schemas that validate requests", async () => {
    const res = await callApi("/v1/openapi.json", { token });
    expect(res.status).toBe(200);
    const doc = res.body as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[] }>; securitySchemes: unknown };
    };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/health", "/ready", "/v1/signing/session", "/v1/signing/manager/signings"]));
    expect(doc.paths["/v1/signing/manager/signings"]).toHaveProperty("post");
    const create = doc.components.schemas.CreateSigningRequest!;
    expect(create.required).toEqual(["locationId"]);
    expect(create.properties!.locationId).toMatchObject({ type: "integer" });
    expect(doc.components.securitySchemes).toEqual({ bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } });
  });

  it("documents the error body's optional reason as an enum of every reason, each described", async () => {
    const doc = (await callApi("/v1/openapi.json", { token })).body as {
      components: { schemas: Record<string, { properties?: Record<string, unknown>; required?: string[]; enum?: string[]; description?: string }> };
    };
    const error = doc.components.schemas.Error!;
    expect(error.required).toEqual(["error"]);
    expect(error.properties!.reason).toEqual({ $ref: "#/components/schemas/ErrorReason" });
    const reason = doc.components.schemas.ErrorReason!;
    expect([...reason.enum!].sort()).toEqual([...ERROR_REASON_VALUES].sort());
    for (const value of ERROR_REASON_VALUES) expect(reason.description).toContain(`\`${value}\`: `);
  });
});

describe("GET /ready with the database down", () => {
  it("answers 503 {ready:false} when PostgreSQL is unreachable, then 200 again when it is back", async () => {
    const unreachable = await openDb({ url: "postgres://postgres@127.0.0.1:1/none" });
    setDbHandle(unreachable);
    try {
      const res = await callApi("/ready");
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ ready: false, reason: "the database does not answer" });
      expect((await callApi("/health")).status).toBe(200);
    } finally {
      await unreachable.close();
      setDbHandle(testDb);
    }
    expect((await callApi("/ready")).body).toEqual({ ready: true });
  });

  it("answers 503 when the embedded database has been closed", async () => {
    const closed = await openDb({ memory: true });
    await closed.close();
    setDbHandle(closed);
    try {
      const res = await callApi("/ready");
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ ready: false, reason: "the database does not answer" });
    } finally {
      setDbHandle(testDb);
    }
  });

  it("/v1 answers a JSON 503 without internals when the database fails mid-request", async () => {
    const unreachable = await openDb({ url: "postgres://postgres@127.0.0.1:1/none" });
    setDbHandle(unreachable);
    try {
      const res = await callApi("/v1/signing/session", { token });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: "The database is unavailable. Try again shortly." });
    } finally {
      await unreachable.close();
      setDbHandle(testDb);
    }
  });
});
