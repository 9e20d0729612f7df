import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getPagePrincipal } from "@/app/_lib/require-principal";
import { setEnvForTests } from "@/lib/env";
import { inNextPrerender } from "@/tests/helpers/next-request-scope";

// What `next build` runs in the server process: next.config.ts, the instrumentation hook and the
// prerender of every page without request data. None of it may open a database or write under .data/.
const root = mkdtempSync(join(tmpdir(), "csig-build-"));
const dataDir = join(root, ".data");

afterAll(() => {
  delete process.env.NEXT_PHASE;
  setEnvForTests({});
});

describe("next build", () => {
  it("loads its config, runs the instrumentation hook and prerenders signed-in pages without writing under the data dir", async () => {
    process.env.NEXT_PHASE = "phase-production-build";
    // No AUTH_SECRET and an embedded database: the configuration under which a build used to write both.
    setEnvForTests({ PGLITE_DIR: join(dataDir, "pglite"), AUTH_SECRET: "", DATABASE_URL: "" });

    await import("@/next.config");
    const { register } = await import("@/instrumentation");
    await register();
    // The (account) layout, the home, sign-out and API-key pages all start with getPagePrincipal().
    await expect(inNextPrerender("/sign-out", () => getPagePrincipal())).rejects.toThrow(/couldn't be rendered statically/);

    expect(existsSync(dataDir) ? readdirSync(dataDir, { recursive: true }) : []).toEqual([]);
  });
});
