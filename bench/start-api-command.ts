// The node flags of `npm run start:api`, read from package.json, so the bench starts the bundled
// core-api exactly as production does (today `--enable-source-maps --max-old-space-size=512`; the heap
// flag is what keeps peak RSS under the session load near 150 MB, see docs/performance.md).
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const CORE_API_BUNDLE = "dist/core-api.mjs";

/** The `--flags` between `node` and `dist/core-api.mjs` in a start:api script; throws when it has another shape. */
export function nodeFlagsOf(script: string): string[] {
  const match = /(?:^|[\s;&|])node((?:\s+--[\w-]+(?:=\S+)?)*)\s+dist\/core-api\.mjs(?:\s|$)/.exec(script);
  if (!match) throw new Error(`start:api does not run "node [--flags] ${CORE_API_BUNDLE}": ${script}`);
  return (match[1] ?? "").trim().split(/\s+/).filter(Boolean);
}

/** The node flags of the start:api script in `<repo>/package.json`. */
export function startApiNodeFlags(repo: string): string[] {
  const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { scripts?: Record<string, string> };
  const script = pkg.scripts?.["start:api"];
  if (!script) throw new Error("package.json has no start:api script");
  return nodeFlagsOf(script);
}

/** The web server `npm start` runs: Next's custom server behind our body caps (server.mjs). */
export const WEB_SERVER = "server.mjs";

/** The `--flags` between `node` and server.mjs in a start script; throws when it has another shape. */
export function nextNodeFlagsOf(script: string): string[] {
  const match = /(?:^|[\s;&|])node((?:\s+--[\w-]+(?:=\S+)?)*)\s+server\.mjs(?:\s|$)/.exec(script);
  if (!match) throw new Error(`start does not run "node [--flags] ${WEB_SERVER}": ${script}`);
  return (match[1] ?? "").trim().split(/\s+/).filter(Boolean);
}

/** The node flags of the start script (the web server, server.mjs) in `<repo>/package.json`. */
export function startNextNodeFlags(repo: string): string[] {
  const pkg = JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { scripts?: Record<string, string> };
  const script = pkg.scripts?.start;
  if (!script) throw new Error("package.json has no start script");
  return nextNodeFlagsOf(script);
}
