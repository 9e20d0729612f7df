// npm run bootstrap -- --org-name "Example Lending" --org-slug example --admin-email ada@example.com --admin-name "Ada Admin"
// On an empty database (DATABASE_URL): applies migrations, creates the first organization and its
// administrator, and prints where they set a password. Does nothing once an organization exists.
import { parseArgs } from "node:util";
import { migrateDb, openDb } from "@/db/client";
import { targetFromEnv } from "@/lib/db/process-db";
import { bootstrapFirstOrganization, bootstrapInputSchema } from "@/lib/deploy/bootstrap-first-organization";
import { getEnv, InvalidEnvironmentError, isClerkConfigured } from "@/lib/env";

const usage =
  'usage: npm run bootstrap -- --org-name "<name>" --org-slug <slug> --admin-email <email> --admin-name "<name>"';

let values: Record<string, string | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      "org-name": { type: "string" },
      "org-slug": { type: "string" },
      "admin-email": { type: "string" },
      "admin-name": { type: "string" },
    },
    strict: true,
  }));
} catch (error) {
  console.error(`bootstrap: ${(error as Error).message}\n${usage}`);
  process.exit(2);
}

const input = bootstrapInputSchema.safeParse({
  organizationName: values["org-name"],
  organizationSlug: values["org-slug"],
  adminEmail: values["admin-email"],
  adminName: values["admin-name"],
});
if (!input.success) {
  const flags: Record<string, string> = { organizationName: "--org-name", organizationSlug: "--org-slug", adminEmail: "--admin-email", adminName: "--admin-name" };
  for (const issue of input.error.issues) console.error(`bootstrap: ${flags[String(issue.path[0])] ?? issue.path.join(".")}: ${issue.message}`);
  console.error(usage);
  process.exit(2);
}

let env: ReturnType<typeof getEnv>;
try {
  env = getEnv();
} catch (error) {
  if (!(error instanceof InvalidEnvironmentError)) throw error;
  console.error(error.message);
  process.exit(1);
}
if (!env.DATABASE_URL) {
  console.error("bootstrap: DATABASE_URL is not set (the embedded database loads the demo dataset on its own)");
  process.exit(1);
}

const handle = await openDb(targetFromEnv(env), { max: 1 });
try {
  await migrateDb(handle);
  const result = await bootstrapFirstOrganization(handle.db, input.data, {
    clerk: isClerkConfigured(env),
  });
  if (!result.created) {
    console.log(`bootstrap: the database already has ${result.organizations} organization(s); nothing changed`);
  } else {
    console.log(`bootstrap: created organization ${input.data.organizationSlug} (id ${result.organizationId}) and its administrator ${input.data.adminEmail}`);
    if (result.invite) {
      const link = new URL("/accept-invite", env.APP_URL);
      link.searchParams.set("token", result.invite.token);
      console.log(`Open this link to choose the password (single use, until ${result.invite.expiresAt.toISOString()}):\n${link.toString()}`);
    } else if (result.provider === "clerk") {
      console.log(`Sign up with Clerk at ${new URL("/sign-in?mode=sign-up", env.APP_URL).toString()} using ${input.data.adminEmail} (verified): the account links on first sign-in.`);
    } else {
      console.log("The administrator already had a password: sign in with it.");
    }
  }
} finally {
  await handle.close();
}
