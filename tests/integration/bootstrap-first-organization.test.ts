import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { organizations } from "@/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptInvite } from "@/lib/sign-in/accept-invite";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { signInWithPassword } from "@/lib/sign-in/sign-in-with-password";
import { bootstrapFirstOrganization } from "@/lib/deploy/bootstrap-first-organization";
import { createTestDb, type TestDb } from "../helpers/db";

const run = promisify(execFile);
let db: TestDb;

beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.cleanup();
});

const input = { organizationName: "Example Lending", organizationSlug: "example-lending", adminEmail: "Ada@Example.com", adminName: "Ada Admin" };

describe("bootstrap of the first organization", () => {
  it("refuses bad input before writing anything", async () => {
    await expect(bootstrapFirstOrganization(db.db, { ...input, organizationSlug: "Not A Slug" }, { clerk: false })).rejects.toThrow();
    await expect(bootstrapFirstOrganization(db.db, { ...input, adminEmail: "nope" }, { clerk: false })).rejects.toThrow();
    const [row] = await db.db.select({ n: sql<number>`count(*)::int` }).from(organizations);
    expect(row?.n).toBe(0);
  });

  it("creates the organization and an administrator who sets a password through the link and signs in", async () => {
    const result = await bootstrapFirstOrganization(db.db, input, { clerk: false });
    expect(result.created).toBe(true);
    if (!result.created) return;
    expect(result.invite?.token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Before the link is used there is no password to guess.
    expect(await signInWithPassword(db.db, { email: "ada@example.com", password: "" })).toBeNull();

    await acceptInvite(db.db, { token: result.invite!.token, password: "correct horse battery" });
    const signedIn = await signInWithPassword(db.db, { email: "ada@example.com", password: "correct horse battery" });
    expect(signedIn?.email).toBe("ada@example.com");

    const principal = await resolvePrincipal(db.db, localSubjectForEmail("ada@example.com"));
    const roles = principal.roles.map((r) => r.role).sort();
    expect(roles).toEqual(["admin", "org_admin"]);
    expect(principal.capabilities).toContain("organizations:write");
  });

  it("changes nothing once an organization exists", async () => {
    const again = await bootstrapFirstOrganization(db.db, { ...input, organizationSlug: "second", adminEmail: "eve@example.com" }, { clerk: false });
    expect(again).toEqual({ created: false, organizations: 1 });
    const rows = await db.db.select({ slug: organizations.slug }).from(organizations);
    expect(rows.map((r) => r.slug)).toEqual(["example-lending"]);
  });
});

describe("npm run bootstrap", () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "bootstraps an empty PostgreSQL database once and prints the password link",
    async () => {
      const root = resolve(import.meta.dirname, "../..");
      const tsx = resolve(root, "node_modules/.bin/tsx");
      const fresh = await createTestDb({ install: false });
      try {
        const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: fresh.url!, APP_URL: "https://sign.example.com", LOG_LEVEL: "warn", NODE_ENV: "test" };
        delete env.CLERK_SECRET_KEY;
        delete env.CLERK_JWT_KEY;
        const args = ["scripts/bootstrap.ts", "--org-name", "Example Lending", "--org-slug", "example", "--admin-email", "ada@example.com", "--admin-name", "Ada Admin"];
        const first = await run(tsx, args, { cwd: root, env });
        expect(first.stdout).toMatch(/created organization example/);
        expect(first.stdout).toMatch(/^https:\/\/sign\.example\.com\/accept-invite\?token=[A-Za-z0-9_-]{43}$/m);
        const second = await run(tsx, args, { cwd: root, env });
        expect(second.stdout).toMatch(/already has 1 organization\(s\); nothing changed/);
        const bad = await run(tsx, ["scripts/bootstrap.ts", "--org-name", "X"], { cwd: root, env }).catch((e: { code: number; stderr: string }) => e);
        expect((bad as { code: number }).code).toBe(2);
        expect((bad as { stderr: string }).stderr).toMatch(/--org-slug/);
      } finally {
        await fresh.cleanup();
      }
    },
    90_000,
  );
});
