// npm run openapi [-- <file>] – writes the OpenAPI document GET /v1/openapi.json serves (stdout without a file).
import { writeFileSync } from "node:fs";
import { openApiDocument } from "@/lib/api/app";

const json = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
const file = process.argv[2];
if (file) writeFileSync(file, json);
else process.stdout.write(json);
process.exit(0);
