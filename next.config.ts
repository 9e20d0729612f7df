import type { NextConfig } from "next";
import createNextIntlPlugin from "next-intl/plugin";
import { getEnv } from "./lib/env";

// Validating here makes a bad environment fail `next dev`, `next build` and `next start` at once.
getEnv();

/**
 * Files the server reads at run time by path rather than by `import`, which output tracing cannot see.
 * `output: "standalone"` copies every traced file into `.next/standalone`, the self-contained folder a
 * serverless function or a container runs (docs/deploy.md, "Standalone build"); these globs (from the
 * project root) are added to the trace of every route. tests/standalone/standalone.test.ts runs the
 * server from a read-only copy of the traced files only, so a file missing here fails CI.
 */
export const RUNTIME_FILES = [
  // db/client.ts: the migrations a long-running server or the embedded database applies at start.
  "./db/migrations/**/*",
  // lib/seals/signature-font-bytes.ts: the typed-signature faces stamped into the sealed PDF.
  "./node_modules/@fontsource/{dancing-script,great-vibes,caveat,homemade-apple}/files/*-latin-400-normal.woff",
  // lib/pdf/pdf-worker-source.ts (pdf-lib and its internal stream decoders) and
  // lib/closings/rasterize-pdf-worker-source.ts (pdf-lib, to take a scanned page's JPEG as it is), required by path in a worker.
  "./node_modules/pdf-lib/{package.json,cjs/**/*.js}",
  "./node_modules/pdf-lib/node_modules/tslib/{package.json,tslib.js}",
  "./node_modules/@pdf-lib/{standard-fonts,upng}/{package.json,lib/**/*.js,cjs/**/*.js,UPNG.js}",
  "./node_modules/pako/{package.json,index.js,lib/**/*.js}",
  // lib/closings/rasterize-pdf-worker-source.ts: pdf.js and the @napi-rs/canvas native module, loaded by path in a worker.
  "./node_modules/pdfjs-dist/package.json",
  "./node_modules/pdfjs-dist/legacy/build/pdf.mjs",
  "./node_modules/pdfjs-dist/legacy/build/pdf.worker.mjs",
  "./node_modules/@napi-rs/canvas/package.json",
  "./node_modules/@napi-rs/canvas/*.js",
  "./node_modules/@napi-rs/canvas-*/package.json",
  "./node_modules/@napi-rs/canvas-*/*.node",
];

const nextConfig: NextConfig = {
  reactStrictMode: true,
  // `.next/standalone`: the traced server and only the files it needs (docs/deploy.md). `npm start`
  // (server.mjs) keeps running from the project folder; `node .next/standalone/server.js` runs the copy.
  output: "standalone",
  outputFileTracingIncludes: { "/*": RUNTIME_FILES },
  poweredByHeader: false,
  // The build type-checks the app only; `npm run typecheck` covers tests, scripts and benchmarks.
  typescript: { tsconfigPath: "tsconfig.next.json" },
  // Required from node_modules at run time instead of bundled. Next bundles a server package into the
  // chunks of every route that reaches it, and `next start` loads every route: bundled, the Twilio SDK
  // alone (3.9 MB of source) sat in the heap eleven times over, fontkit and node-forge thirteen. Loaded
  // by Node, each is in memory once.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "postgres",
    "pdf-lib",
    "@pdf-lib/fontkit",
    "@signpdf/signpdf",
    "@signpdf/utils",
    "@signpdf/placeholder-pdf-lib",
    "node-forge",
    "twilio",
    "stripe",
    "plaid",
    "svix",
    "qrcode",
    "jsqr",
    "ioredis",
  ],
  experimental: {
    // Server actions take files: the package form posts its documents and the template form its
    // document (each PDF up to 10 MiB, checked by the domain), a chattel document its files (10 MiB
    // each), /verify a sealed PDF (up to 11 MiB, checked by the action). The defaults are 1 MB
    // (actions) and 10 MB (bodies proxy.ts buffers; a longer body reaches the action cut short).
    serverActions: { bodySizeLimit: "32mb" },
    proxyClientMaxBodySize: "32mb",
    // Load a route's code when it is first requested, not every route's as the server starts (Next's
    // default outside a serverless host): a cold start then answers its first request without first
    // evaluating the modules of every page (Twilio, pdf-lib, fontkit, the S3 SDK…), the long-running
    // server's first request to each route pays for that route only (docs/performance.md, "Cold start").
    preloadEntriesOnStart: false,
  },
  turbopack: {
    resolveAlias: {
      // next-intl's small formatter for messages compiled ahead of time (lib/i18n/catalogs.ts compiles
      // the catalogs once on the server): the borrower's browser gets no ICU parser.
      "use-intl/format-message": "./node_modules/use-intl/dist/esm/production/format-message/format-only.js",
    },
    rules: {
      // pdf.js without the Buffer and process polyfills its Node.js-only lines would pull into the signer's page
      // (scripts/turbopack/pdfjs-without-node-globals.cjs says why and how).
      "*.mjs": {
        condition: { all: ["browser", { path: /[\\/]pdfjs-dist[\\/]build[\\/]pdf\.mjs$/ }] },
        loaders: ["./scripts/turbopack/pdfjs-without-node-globals.cjs"],
      },
    },
  },
  async rewrites() {
    return [
      { source: "/health", destination: "/api/health" },
      { source: "/ready", destination: "/api/ready" },
      { source: "/.well-known/jwks.json", destination: "/api/auth/jwks" },
    ];
  },
};

// next-intl without i18n routing: URLs carry no locale; i18n/request.ts resolves it per request.
const withNextIntl = createNextIntlPlugin("./i18n/request.ts");

export default withNextIntl(nextConfig);
