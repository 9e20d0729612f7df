import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ESLint } from "eslint";
import tseslint from "typescript-eslint";
import { afterAll, describe, expect, it } from "vitest";
import local from "../../eslint-rules/no-import-cycle.mjs";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Lints a throw-away project with only the cycle rule; returns "file: message" per problem. */
async function lintProject(files: Record<string, string>): Promise<string[]> {
  const root = mkdtempSync(join(tmpdir(), "no-import-cycle-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ["**/*.ts", "**/*.tsx"],
        languageOptions: { parser: tseslint.parser },
        plugins: { local },
        rules: { "local/no-import-cycle": ["error", { aliases: { "@/": "" } }] },
      },
    ],
  });
  const results = await eslint.lintFiles(["."]);
  return results
    .flatMap((result) => result.messages.map((m) => `${result.filePath.slice(root.length + 1)}: ${m.message}`))
    .sort();
}

describe("local/no-import-cycle", () => {
  it("reports a cycle made only of `import type`, which import/no-cycle skips", async () => {
    expect(
      await lintProject({
        "lib/storage/file-storage.ts": 'import { db } from "./database";\nexport type FileStorage = { kind: string };\nexport const get = () => db;\n',
        "lib/storage/database.ts": 'import type { FileStorage } from "./file-storage";\nexport const db: FileStorage = { kind: "db" };\n',
      }),
    ).toEqual([
      "lib/storage/database.ts: Import cycle: lib/storage/database.ts → lib/storage/file-storage.ts → lib/storage/database.ts",
      "lib/storage/file-storage.ts: Import cycle: lib/storage/file-storage.ts → lib/storage/database.ts → lib/storage/file-storage.ts",
    ]);
  });

  it("follows the @/ alias, index files, re-exports and import() across three modules", async () => {
    expect(
      await lintProject({
        "lib/jobs/enqueue-job.ts": 'export * from "@/lib/jobs/registry";\n',
        "lib/jobs/registry/index.ts": 'export const load = () => import("../../signings/expire-job");\n',
        "lib/signings/expire-job.tsx": 'import { load } from "@/lib/jobs/enqueue-job";\nexport const job = load;\n',
      }),
    ).toEqual([
      "lib/jobs/enqueue-job.ts: Import cycle: lib/jobs/enqueue-job.ts → lib/jobs/registry/index.ts → lib/signings/expire-job.tsx → lib/jobs/enqueue-job.ts",
      "lib/jobs/registry/index.ts: Import cycle: lib/jobs/registry/index.ts → lib/signings/expire-job.tsx → lib/jobs/enqueue-job.ts → lib/jobs/registry/index.ts",
      "lib/signings/expire-job.tsx: Import cycle: lib/signings/expire-job.tsx → lib/jobs/enqueue-job.ts → lib/jobs/registry/index.ts → lib/signings/expire-job.tsx",
    ]);
  });

  it("accepts a graph without cycles, shared dependencies and packages included", async () => {
    expect(
      await lintProject({
        "lib/a.ts": 'import { z } from "zod";\nimport { b } from "./b";\nimport { c } from "@/lib/c";\nexport const a = [z, b, c];\n',
        "lib/b.ts": 'import type { C } from "./c";\nexport const b: C | undefined = undefined;\n',
        "lib/c.ts": "export type C = number;\nexport const c = 1;\n",
        "tests/a.test.ts": 'import { a } from "@/lib/a";\nexport default a;\n',
      }),
    ).toEqual([]);
  });
});
