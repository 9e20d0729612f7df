// Runs before every test file: a fixed, quiet test environment that never writes into the repo.
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

process.env.LOG_LEVEL ??= "silent";
process.env.AUTH_SECRET ??= "test-auth-secret-that-is-long-enough-0123456789";
process.env.PGLITE_DIR = join(mkdtempSync(join(tmpdir(), "csig-test-")), "pglite");
process.env.APP_URL ??= "http://localhost:3000";

// Next's server sets this global before its request storages load (route modules import them);
// tests that call route handlers inside a request scope need it set as early.
(globalThis as { AsyncLocalStorage?: unknown }).AsyncLocalStorage ??= AsyncLocalStorage;
