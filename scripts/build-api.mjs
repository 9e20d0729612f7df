// npm run build:api (part of npm run build) – bundles the standalone core-api server into dist/core-api.mjs,
// so production runs it with plain `node`, without a TypeScript loader. Dependencies stay in
// node_modules (they are not bundled): PGlite's WASM, postgres.js and the SDKs load as published.
import { build } from "esbuild";

const started = Date.now();
const result = await build({
  entryPoints: { "core-api": "scripts/start-api.ts" },
  outdir: "dist",
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
});
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + (o.bytes ?? 0), 0);
console.log(`dist/core-api.mjs built in ${Date.now() - started} ms (${(bytes / 1024).toFixed(0)} KiB with its source map)`);
