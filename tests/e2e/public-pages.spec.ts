import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { openDb } from "@/db/client";
import { memberships, organizations, users } from "@/db/schema";
import { createInviteToken } from "@/lib/auth/create-invite-token";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { HomePage } from "./pages/home-page";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, test } from "./support/fixtures";

/** Creates an invited local user without a password, and the invitation link's token, in the server's database. */
async function inviteNewSigner(databaseUrl: string): Promise<{ email: string; token: string }> {
  const handle = await openDb({ url: databaseUrl }, { max: 1 });
  try {
    const email = `invitee-${randomBytes(4).toString("hex")}@demo.local`;
    const [organization] = await handle.db.select().from(organizations).where(eq(organizations.slug, "demo"));
    const [user] = await handle.db
      .insert(users)
      .values({ email, name: "Ivy Invitee", authProvider: "local", authSubject: localSubjectForEmail(email) })
      .returning();
    await handle.db.insert(memberships).values({ userId: user!.id, role: "signer", organizationId: organization!.id });
    const { token } = await createInviteToken(handle.db, { userId: user!.id, organizationId: organization!.id });
    return { email, token };
  } finally {
    await handle.close();
  }
}

test.describe("pages without a session", () => {
  test("an unusable invitation link says so and offers sign-in", async ({ page }) => {
    await page.goto("/accept-invite?token=not-a-real-token");
    await expect(page.getByRole("heading", { level: 1, name: "Invitation link" })).toBeVisible();
    await expect(page.getByRole("alert").filter({ hasText: /\S/ }).first()).toBeVisible();
    await expect(page.getByRole("link", { name: "Go to sign in" })).toHaveAttribute("href", "/sign-in");
    await expectNoAxeViolations(page);
  });

  test("an invitation link sets a password and signs the invited person in", { tag: "@desktop" }, async ({ page }) => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to issue an invitation (PGlite is held by the server)");
    const { email, token } = await inviteNewSigner(e2eDatabaseUrl());
    await page.goto(`/accept-invite?token=${token}`);
    await expect(page.getByRole("heading", { level: 1, name: "Accept your invitation" })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByLabel("New password").fill("correct horse battery staple");
    await page.getByLabel("Repeat the password").fill("correct horse battery stapler");
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "The two passwords do not match." })).toBeVisible();
    await expect(page.getByLabel("Repeat the password")).toBeFocused();
    await expectNoAxeViolations(page);

    await page.getByLabel("Repeat the password").fill("correct horse battery staple");
    await Promise.all([page.waitForURL((url) => url.pathname === "/"), page.getByRole("button", { name: "Set password and sign in" }).click()]);
    await expect(new HomePage(page).currentUser).toContainText("Ivy Invitee");
  });

  test("the dev outbox does not exist in production, and the not-found page is accessible", async ({ page }) => {
    const response = await page.goto("/dev/outbox");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Dev outbox" })).toHaveCount(0);
    await expectNoAxeViolations(page);
  });
});
