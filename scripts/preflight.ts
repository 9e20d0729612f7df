// npm run preflight [-- --env-file <file>] [--instances <n>] [--serverless] – checks a production environment variable
// by variable and exits 1 when anything would be missing or unsafe (docs/deploy.md, "Preflight").
import { existsSync, readFileSync } from "node:fs";
import { parseEnv as parseDotenv } from "node:util";
import { formatPreflightReport, runPreflight } from "@/lib/deploy/preflight";

const args = process.argv.slice(2);
let source: Record<string, string | undefined> = process.env;
let instances: number | undefined;
let serverless = false;
for (let i = 0; i < args.length; i++) {
  const arg = args[i]!;
  const next = () => {
    const v = args[++i];
    if (v === undefined) usage(`${arg} needs a value`);
    return v!;
  };
  if (arg === "--env-file") {
    const file = next();
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      usage(`cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    // Only the file: what the service manager will hand the app, not this shell's variables.
    source = source === process.env ? { ...parseDotenv(text!) } : { ...source, ...parseDotenv(text!) };
  } else if (arg === "--instances") {
    instances = Number(next());
    if (!Number.isInteger(instances) || instances < 1) usage("--instances must be a positive integer");
  } else if (arg === "--serverless") {
    serverless = true;
  } else if (arg === "--help" || arg === "-h") {
    usage();
  } else {
    usage(`unknown argument ${arg}`);
  }
}

function usage(problem?: string): never {
  if (problem) console.error(`preflight: ${problem}`);
  console.error("usage: npm run preflight [-- --env-file <file> ...] [--instances <web instances>] [--serverless]");
  process.exit(problem ? 2 : 0);
}

/** vercel.json's buildCommand, when the project has one (the serverless deploy step that migrates). */
function buildCommand(): string | undefined {
  if (!existsSync("vercel.json")) return undefined;
  try {
    const command = (JSON.parse(readFileSync("vercel.json", "utf8")) as { buildCommand?: unknown }).buildCommand;
    return typeof command === "string" ? command : undefined;
  } catch {
    return undefined;
  }
}

const report = runPreflight(source, { instances, serverless, buildCommand: serverless ? buildCommand() : undefined });
console.log(formatPreflightReport(report));
process.exit(report.errors > 0 ? 1 : 0);
