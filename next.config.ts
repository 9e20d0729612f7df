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
