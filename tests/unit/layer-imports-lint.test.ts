import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The ESLint rule that keeps domain code (lib/<aggregate>/, db/) from importing the HTTP layer.
const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax")
    .map((m) => m.message);
}

describe("no-restricted-imports / no-restricted-syntax: lib/api is unimportable from domain code", () => {
  it.each([
    ["lib/signings/example.ts", 'import { serializePage } from "@/lib/api/serialize-page";\nexport const x = serializePage;\n'],
    ["lib/signings/example.ts", 'import type { ApiEnv } from "../api/context";\nexport type X = ApiEnv;\n'],
    ["lib/example.ts", 'import { validationHook } from "./api/validation";\nexport const x = validationHook;\n'],
    ["db/schema/example.ts", 'import { describeIssues } from "../../lib/api/validation";\nexport const x = describeIssues;\n'],
    ["lib/signings/example.ts", 'export const load = () => import("@/lib/api/app");\n'],
    ["lib/signings/example.ts", 'export { PaginationQuerySchema } from "@/lib/api/schemas/pagination";\n'],
  ])("%s: %s is an error", async (filePath, code) => {
    const messages = await restrictedImports(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("Domain code must not import the HTTP layer (lib/api)");
  });

  it.each([
    ["lib/api/routes/example.ts", 'import { serializePage } from "../serialize-page";\nexport const x = serializePage;\n'],
    ["lib/next/example.ts", 'import { getApiApp } from "@/lib/api/app";\nexport const x = getApiApp;\n'],
    ["lib/signings/example.ts", 'import { toKeysetPage } from "@/lib/pagination/keyset-page";\nexport const x = toKeysetPage;\n'],
    ["lib/signings/example.ts", 'import { x } from "@/lib/api-keys/exchange-api-key";\nexport const y = x;\n'],
  ])("%s: %s is allowed", async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([]);
  });
});
