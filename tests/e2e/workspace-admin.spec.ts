import { randomBytes } from "node:crypto";
import { openDb } from "@/db/client";
import { lastDeliveredMailTo } from "../helpers/mail";
import { startFakeStripe } from "../fakes/stripe/start-fake-stripe";
import { HomePage } from "./pages/home-page";
import { WorkspacePage } from "./pages/workspace-page";
import { startNextServer } from "./support/next-server";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

/** The password link of the invitation email delivered to `email` (rendered when its `send-email` job runs). */
async function invitationLink(databaseUrl: string, email: string): Promise<string> {
  const handle = await openDb({ url: databaseUrl }, { max: 1 });
  try {
    const { text } = await lastDeliveredMailTo(handle.db, email);
    const link = /https?:\/\/\S+\/accept-invite\?token=[\w-]+/.exec(text)?.[0];
    if (!link) throw new Error(`no invitation link for ${email} in: ${text}`);
    return link;
  } finally {
    await handle.close();
  }
}

test.describe("the organization admin's workspace", { tag: "@desktop" }, () => {
  test("an org admin invites a member who accepts and signs in, changes a role, cannot remove the last admin, and edits settings", async ({ page, browser }) => {
    test.skip(!e2eDatabaseUrl(), "reads the invitation email from the run's PostgreSQL database (PGlite is held by the server)");
    const email = `new-manager-${randomBytes(4).toString("hex")}@demo.local`;
    await signInAs(page, "owner@demo.local");
    await new HomePage(page).nav.getByRole("link", { name: "Workspace" }).click();
    const workspace = new WorkspacePage(page);
    await expect(page.getByRole("heading", { level: 1, name: "Demo Lending Co." })).toBeVisible();
    await expect(workspace.tabs.getByRole("link", { name: "Members" })).toHaveAttribute("aria-current", "page");
    await expectNoAxeViolations(page);

    // An address the API refuses keeps what was typed and says what is wrong (the browser checks the basic shape first).
    await workspace.invite({ email: "nina@localhost", name: "Nina Newhire", role: "Manager: runs packages" });
    await expect(page.getByLabel("Email")).toHaveValue("nina@localhost");
    await expect(page.getByLabel("Name (optional)")).toHaveValue("Nina Newhire");
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expect(workspace.inviteForm.getByRole("status")).toContainText(/email/i);

    await workspace.invite({ email, name: "Nina Newhire", role: "Manager: runs packages", where: "Location: Austin Branch (Demo Homes Finance)" });
    await expect(workspace.inviteForm.getByRole("status")).toHaveText(`Invitation sent to ${email}.`);
    const row = workspace.memberRow(email);
    await expect(row).toContainText("Invitation pending");
    await expect(row).toContainText("Location: Austin Branch");

    // The invited person follows the emailed link, sets a password, and lands signed in with a manager's navigation.
    const link = await invitationLink(e2eDatabaseUrl(), email);
    const invitee = await browser.newContext();
    const inviteePage = await invitee.newPage();
    await inviteePage.goto(new URL(link).pathname + new URL(link).search);
    await inviteePage.getByLabel("New password").fill("correct horse battery staple");
    await inviteePage.getByLabel("Repeat the password").fill("correct horse battery staple");
    await Promise.all([inviteePage.waitForURL((url) => url.pathname === "/"), inviteePage.getByRole("button", { name: "Set password and sign in" }).click()]);
    const inviteeHome = new HomePage(inviteePage);
    await expect(inviteeHome.currentUser).toContainText("Nina Newhire");
    await expect(inviteeHome.nav.getByRole("link", { name: "Packages" })).toBeVisible();
    await expect(inviteeHome.nav.getByRole("link", { name: "Workspace" })).toHaveCount(0);
    // A manager who opens the workspace anyway gets an explanation, not an error page.
    await inviteePage.goto("/workspace/members");
    await expect(inviteePage.getByText("Only an organization admin can manage members.")).toBeVisible();
    await invitee.close();

    await page.reload();
    await expect(workspace.memberRow(email)).toContainText("Active");
    await workspace.changeRole("Nina Newhire", "Signer");
    await expect(workspace.memberRow(email).getByRole("status")).toHaveText("Nina Newhire is now a signer.");

    // The only org admin cannot be removed: the API's conflict, in the dialog, nothing changed.
    const dialog = await workspace.remove("Olive Owner");
    await expect(dialog.getByRole("status")).toContainText(/org_admin|organization admin/i);
    await dialog.getByRole("button", { name: "Keep" }).click();
    await expect(workspace.memberRow("owner@demo.local")).toBeVisible();

    await workspace.remove("Nina Newhire");
    await expect(workspace.memberRow(email)).toHaveCount(0);

    // Settings: a bad value keeps every field as typed; a good one saves.
    await workspace.tabs.getByRole("link", { name: "Settings" }).click();
    await expect(page.getByLabel("Organization name")).toHaveValue("Demo Lending Co.");
    await expectNoAxeViolations(page);
    await page.getByLabel("Remind signers every (days)").fill("every week");
    await page.getByLabel("Brand colour").fill("#1D4ED8");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("Enter a whole number of days from 1 to 90, or leave it empty.")).toBeVisible();
    await expect(page.getByLabel("Remind signers every (days)")).toHaveValue("every week");
    await expect(page.getByLabel("Brand colour")).toHaveValue("#1D4ED8");
    await expect(page.getByLabel("Remind signers every (days)")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Remind signers every (days)").fill("");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Settings saved." })).toBeVisible();
    await expect(page.getByLabel("Brand colour")).toHaveValue("#1d4ed8");
    await page.getByLabel("Brand colour").fill("");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByLabel("Brand colour")).toHaveValue("");

    // Usable at 768 px: no horizontal scroll of the page.
    await page.setViewportSize({ width: 768, height: 900 });
    await workspace.gotoMembers();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });

  test("billing: Upgrade goes to the Stripe fake's Checkout page", async ({ browser }) => {
    test.setTimeout(150_000);
    const stripe = await startFakeStripe();
    const server = await startNextServer(() => ({
      STRIPE_SECRET_KEY: "sk_test_e2e",
      STRIPE_API_BASE_URL: stripe.baseUrl,
      STRIPE_PRICE_PRO: "price_pro_e2e",
      STRIPE_PRICE_ENTERPRISE: "price_enterprise_e2e",
    }));
    const context = await browser.newContext({ baseURL: server.baseUrl });
    try {
      const page = await context.newPage();
      await context.route("https://checkout.stripe.test/**", (route) =>
        route.fulfill({ contentType: "text/html", body: "<!doctype html><html lang=en><title>Stripe Checkout (fake)</title><h1>Checkout</h1></html>" }),
      );
      await signInAs(page, "owner@demo.local");
      await page.goto("/workspace/billing");
      await expect(page.getByTestId("billing-plan")).toHaveText("Free");
      await expect(page.getByTestId("billing-status")).toHaveText("Active");
      await expect(page.getByRole("button", { name: "Manage billing" })).toHaveCount(0);
      await expectNoAxeViolations(page);
      await Promise.all([
        page.waitForURL(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_fake_\d+$/),
        page.getByRole("button", { name: "Upgrade to Pro" }).click(),
      ]);
      const checkout = stripe.requests.find((r) => r.path === "/v1/checkout/sessions");
      expect(checkout?.form).toMatchObject({ "line_items[0][price]": "price_pro_e2e", customer_email: "owner@demo.local", "metadata[planTier]": "pro" });
      expect(checkout?.form.success_url).toMatch(new RegExp(`^${server.baseUrl}/workspace/billing\\?organizationId=\\d+&checkout=success$`));

      await page.goto(`${new URL(checkout!.form.cancel_url!).pathname}${new URL(checkout!.form.cancel_url!).search}`);
      await expect(page.getByRole("status").filter({ hasText: "Checkout was cancelled; nothing changed." })).toBeVisible();
    } finally {
      await context.close();
      await server.stop();
      await stripe.stop();
    }
  });
});
