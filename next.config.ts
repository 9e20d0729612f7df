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
  // /verify posts a sealed PDF (up to 11 MiB) to a server action; the default caps are 1 MB (actions)
  // and 10 MB (bodies buffered by proxy.ts, truncated beyond). The action checks the size itself.
  experimental: {
    serverActions: { bodySizeLimit: "12mb" },
    proxyClientMaxBodySize: "12mb",
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
