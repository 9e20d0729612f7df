import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/app";
import { callApi } from "../helpers/api";
import { assertDocumentedResponse } from "../helpers/openapi-contract";

type Operation = { operationId?: string; summary?: string; responses: Record<string, unknown>; parameters?: { name: string; in: string }[] };
const doc = openApiDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown>; type?: unknown; enum?: unknown[] }> };
};
const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));

describe("the OpenAPI document is the contract", () => {
  it("registers every schema name once (two schemas under one name make one silently replace the other)", () => {
    const names = readdirSync("lib/api", { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .flatMap((file) => [...readFileSync(`lib/api/${file}`, "utf8").matchAll(/\.openapi\(\s*"([A-Za-z0-9]+)"/g)].map((m) => m[1]!));
    expect(names.length).toBeGreaterThan(50);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it("documents a package's document list as document metadata (with sha256), not as chattel documents", () => {
    const list = doc.paths["/v1/signing/manager/signings/{id}/documents"]!.get!.responses["200"] as {
      content: { "application/json": { schema: { $ref: string } } };
    };
    const name = list.content["application/json"].schema.$ref.split("/").pop()!;
    const item = (doc.components.schemas[name]!.properties!.data as { items: { $ref: string } }).items.$ref.split("/").pop()!;
    expect(doc.components.schemas[item]!.properties).toHaveProperty("sha256");
    expect(doc.components.schemas.DocumentList!.properties).toHaveProperty("nextCursor");
  });

  it("says null where the server returns null, and only there", () => {
    const signer = doc.components.schemas.Signer!.properties!;
    for (const field of ["authMethod", "authPassedMethod", "language"]) {
      expect(signer[field], field).toEqual(expect.objectContaining({ anyOf: expect.arrayContaining([{ type: "null" }]) }));
    }
    // The shared enums stay non-nullable for the fields that never hold null.
    expect(doc.components.schemas.SignerAuthMethod!.enum).not.toContain(null);
    expect(doc.components.schemas.SignerLanguage!.enum).not.toContain(null);
    expect(doc.components.schemas.SettlementAgentLink!.type).toBe("object");
  });

  it("names every operation (a unique operationId) and summarizes it; every /v1 operation lists its 401", () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.filter((id) => !id)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.filter(({ op }) => !op.summary).map(({ method, path }) => `${method} ${path}`)).toEqual([]);
    expect(operations.filter(({ path, op }) => path.startsWith("/v1/") && !op.responses["401"]).map(({ method, path }) => `${method} ${path}`)).toEqual([]);
  });

  it("the test helper refuses an answer the document does not list, and a body that does not match", async () => {
    const teapot = new Response(JSON.stringify({ error: "no" }), { status: 418, headers: { "content-type": "application/json" } });
    await expect(assertDocumentedResponse("GET", "http://core-api.test/v1/signing/session", teapot)).rejects.toThrow(/418/);
    const wrong = new Response(JSON.stringify({ nope: true }), { status: 200, headers: { "content-type": "application/json" } });
    await expect(assertDocumentedResponse("GET", "http://core-api.test/health", wrong)).rejects.toThrow(/does not describe/);
  });

  it("a trailing slash on a collection is a 404, not a 405 that names the method used", async () => {
    expect((await callApi("/health")).status).toBe(200);
    const res = await callApi("/health/");
    expect(res.status).toBe(404);
  });
});
