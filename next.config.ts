import type { NextConfig } from "next";
import { getEnv } from "./lib/env";

// Validating here makes a bad environment fail `next dev`, `next build` and `next start` at once.
getEnv();

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The build type-checks the app only; `npm run typecheck` covers tests, scripts and benchmarks.
  typescript: { tsconfigPath: "tsconfig.next.json" },
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pdf-lib"],
  experimental: {
    // The package form posts its PDFs (each up to 10 MiB, checked by the domain) with a server
    // action; proxy.ts buffers request bodies for the proxy up to the second limit (10 MB by
    // default, and a longer body reaches the action cut short).
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
