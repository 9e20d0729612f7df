import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import client from "../../eslint-rules/no-db-in-client.mjs";

const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfigFile: true,
  overrideConfig: [
    {
      files: ["**/*.ts", "**/*.tsx"],
      languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
      plugins: { client },
      rules: { "client/no-db-in-client": "error" },
    },
  ],
});

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => m.message);
}

describe("client/no-db-in-client", () => {
  it.each([
    ['import { FLOW_STEPS } from "@/db/schema/flows";\nexport const x = FLOW_STEPS;\n'],
    ['import type { FieldType } from "@/db/schema/document-fields";\nexport type X = FieldType;\n'],
    ['import { getDb } from "@/db";\nexport const x = getDb;\n'],
    ['import { pgEnum } from "drizzle-orm/pg-core";\nexport const x = pgEnum;\n'],
    ['import { eq } from "drizzle-orm";\nexport const x = eq;\n'],
    ['import { flows } from "../../../../db/schema/flows";\nexport const x = flows;\n'],
    ['export { FLOW_STEPS } from "@/db/schema/flows";\n'],
    ['export * from "@/db/schema";\n'],
    ['export const load = () => import("@/db/schema");\n'],
  ])("a client component importing the database is an error: %s", async (code) => {
    const messages = await problems("app/(manager)/flows/_components/example.tsx", `"use client";\n\n${code}`);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain("database code must not reach the browser");
  });

  it.each([
    ['import { FLOW_STEPS } from "@/lib/flows/flow-step-values";\nexport const x = FLOW_STEPS;\n'],
    ['import { FLOW_STEPS } from "@/db/values/flow-step-values";\nexport const x = FLOW_STEPS;\n'],
    ['import { FIELD_TYPE_VALUES } from "../../../../db/values/field-type-values";\nexport const x = FIELD_TYPE_VALUES;\n'],
    ['import { dbHelper } from "@/dbx/helper";\nexport const x = dbHelper;\n'],
    ['import { x } from "./db-free";\nexport const y = x;\n'],
  ])("a client component importing plain modules passes: %s", async (code) => {
    expect(await problems("app/(manager)/flows/_components/example.tsx", `"use client";\n\n${code}`)).toEqual([]);
  });

  it("server modules may import the database", async () => {
    const code = 'import { getDb } from "@/db";\nimport { eq } from "drizzle-orm";\nexport const x = [getDb, eq];\n';
    expect(await problems("lib/flows/example.ts", code)).toEqual([]);
    expect(await problems("app/(manager)/flows/page.tsx", code)).toEqual([]);
  });

  it('"use client" counts only as the leading directive', async () => {
    const code = 'import { getDb } from "@/db";\n"use client";\nexport const x = getDb;\n';
    expect(await problems("lib/flows/example.ts", code)).toEqual([]);
    const afterStrict = '"use strict";\n"use client";\nimport { getDb } from "@/db";\nexport const x = getDb;\n';
    expect(await problems("app/example.tsx", afterStrict)).toHaveLength(1);
  });
});
