// Runs before every test file: a fixed, quiet test environment that never writes into the repo.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

process.env.LOG_LEVEL ??= "silent";
process.env.AUTH_SECRET ??= "test-auth-secret-that-is-long-enough-0123456789";
process.env.PGLITE_DIR = join(mkdtempSync(join(tmpdir(), "csig-test-")), "pglite");
process.env.APP_URL ??= "http://localhost:3000";
