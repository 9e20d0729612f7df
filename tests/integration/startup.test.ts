import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("start-up with bad configuration", () => {
  it("exits non-zero with a message naming the variable", () => {
    const result = spawnSync(process.execPath, ["--import", "tsx", "scripts/start-api.ts"], {
      env: { PATH: process.env.PATH, NODE_ENV: "development", DATABASE_URL: "mysql://nope", API_PORT: "0" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("DATABASE_URL: must be a URL (postgres:, postgresql:)");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});
