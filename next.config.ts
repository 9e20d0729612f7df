import type { NextConfig } from "next";
import { getEnv } from "./lib/env";

// Validating here makes a bad environment fail `next dev`, `next build` and `next start` at once.
getEnv();

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The build type-checks the app only; `npm run typecheck` covers tests, scripts and benchmarks.
  typescript: { tsconfigPath: "tsconfig.next.json" },
  // Server actions take PDF uploads (template documents): the 10 MiB PDF cap plus form overhead.
  experimental: { serverActions: { bodySizeLimit: "11mb" } },
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pdf-lib"],
  experimental: {
    // Server actions take PDFs: the package form posts its documents (each up to 10 MiB, checked by
    // the domain) and /verify a sealed PDF (up to 11 MiB, checked by the action). The defaults are
    // 1 MB (actions) and 10 MB (bodies proxy.ts buffers; a longer body reaches the action cut short).
    serverActions: { bodySizeLimit: "32mb" },
    proxyClientMaxBodySize: "32mb",
  },
  async rewrites() {
    return [
      { source: "/v1/:path*", destination: "/api/v1/:path*" },
      { source: "/health", destination: "/api/health" },
      { source: "/ready", destination: "/api/ready" },
      { source: "/.well-known/jwks.json", destination: "/api/auth/jwks" },
    ];
  },
};

export default nextConfig;
