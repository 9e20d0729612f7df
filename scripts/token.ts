// npm run --silent token -- <email> [--ttl <seconds>] – prints a fresh local access token alone on stdout.
import { parseArgs } from "node:util";
import { eq, sql } from "drizzle-orm";
import { closeDb } from "@/lib/db/process-db";
import { pgliteLockHolder } from "@/db/pglite-lock";
import { users } from "@/db/schema";
import { issueLocalAccessToken, localSubjectForEmail } from "@/lib/auth/local-tokens";
import { prepareDatabase } from "@/lib/boot";
import { getEnv } from "@/lib/env";
import { resolve } from "node:path";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { ttl: { type: "string", short: "t" }, help: { type: "boolean", short: "h" } },
});
const email = positionals[0];
if (values.help || !email) {
  console.error("usage: npm run --silent token -- <email> [--ttl <seconds>]   (default ttl: ACCESS_TOKEN_TTL_SECONDS)");
  process.exit(values.help ? 0 : 2);
}
const ttlSeconds = values.ttl === undefined ? undefined : Number(values.ttl);
if (ttlSeconds !== undefined && (!Number.isInteger(ttlSeconds) || ttlSeconds < 1 || ttlSeconds > 86_400)) {
  console.error("--ttl must be a whole number of seconds between 1 and 86400");
  process.exit(2);
}

const env = getEnv();
let subject = localSubjectForEmail(email);
const holder = env.DATABASE_URL ? undefined : pgliteLockHolder(resolve(env.PGLITE_DIR));
if (holder !== undefined) {
  // The embedded database belongs to the running app (PGlite is single-process): the local subject
  // is derived from the email, so the token is still right for any local user; it is just unchecked.
  console.error(`note: the embedded database is in use by process ${holder}; ${email} was not looked up`);
} else {
  const handle = await prepareDatabase();
  try {
    const [user] = await handle.db
      .select({ authSubject: users.authSubject, isActive: users.isActive })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
      .limit(1);
    if (!user?.authSubject || !user.isActive) {
      console.error(`no active user with a sign-in identity has the email ${email}`);
      process.exit(1);
    }
    subject = user.authSubject;
  } finally {
    await closeDb();
  }
}
const { token } = await issueLocalAccessToken({ subject, ttlSeconds });
process.stdout.write(`${token}\n`);
