// npm run preflight [-- --env-file <file>] [--instances <n>] – checks a production environment variable
// by variable and exits 1 when anything would be missing or unsafe (docs/deploy.md, "Preflight").
import { readFileSync } from "node:fs";
import { parseEnv as parseDotenv } from "node:util";
import { formatPreflightReport, runPreflight } from "@/lib/deploy/preflight";

const args = process.argv.slice(2);
let source: Record<string, string | undefined> = process.env;
let instances = 1;
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
  } else if (arg === "--help" || arg === "-h") {
    usage();
  } else {
    usage(`unknown argument ${arg}`);
  }
}

function usage(problem?: string): never {
  if (problem) console.error(`preflight: ${problem}`);
  console.error("usage: npm run preflight [-- --env-file <file> ...] [--instances <web instances>]");
  process.exit(problem ? 2 : 0);
}

const report = runPreflight(source, { instances });
console.log(formatPreflightReport(report));
process.exit(report.errors > 0 ? 1 : 0);
