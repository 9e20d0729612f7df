import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Page } from "@playwright/test";
import { openDb, type DbHandle } from "@/db/client";
import { auditLog, bankItems, eSignatures, locations, packageSigners } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { replaceFramingOrigins } from "@/lib/embedded/allowed-origins";
import { issueEmbeddedUrl } from "@/lib/embedded/embedded-url";
import { freePort } from "../helpers/free-port";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { SignPanel } from "./pages/sign-panel";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

// Embedded signing: the example lender page of docs/embedded-signing.md, served from a second
// loopback origin (localhost, another site than the app's 127.0.0.1), frames a single-use signing
// URL; the borrower signs inside the frame and the page receives the frame's messages. A page from
// an origin not on the organization's list cannot frame it.

const EXAMPLE = readFileSync("docs/embedded-signing/example.html", "utf8");

let handle: DbHandle;
let servers: Server[] = [];

async function serveExample(): Promise<string> {
  const port = await freePort();
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(EXAMPLE);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  servers.push(server);
  return `http://localhost:${port}`;
}

test.beforeEach(async () => {
  test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create a package (PGlite is held by the server)");
  handle = await openDb({ url: e2eDatabaseUrl() }, { max: 1 });
});

test.afterEach(async () => {
  await handle?.close();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  servers = [];
});

async function embeddedUrlFor(baseURL: string, allowed: string[]) {
  const [austin] = await handle.db.select().from(locations).where(eq(locations.name, "Austin Branch"));
  const owner = await resolvePrincipal(handle.db, localSubjectForEmail("owner@demo.local"));
  await replaceFramingOrigins(handle.db, { principal: owner, organizationId: austin!.organizationId, origins: allowed });
  const email = `framed-${randomBytes(3).toString("hex")}@example.test`;
  const pkg = await createSignerPackage(handle.db, { location: austin!, signers: [{ email }], title: `Framed closing ${randomBytes(3).toString("hex")}` });
  const manager = await resolvePrincipal(handle.db, localSubjectForEmail("manager@demo.local"));
  const { token } = await issueEmbeddedUrl(handle.db, { principal: manager, packageId: pkg.id, signerId: pkg.signers[0]!.id });
  return { pkg, url: `${baseURL}/embed/${token}` };
}

const messages = (page: Page) => page.getByRole("list", { name: "Messages from the signing frame" }).getByRole("listitem");

test("a borrower signs inside the lender's page; the page hears ready and signed; the URL works once", async ({ page, baseURL }, testInfo) => {
  const lender = await serveExample();
  const { pkg, url } = await embeddedUrlFor(baseURL!, [lender]);

  await page.goto(`${lender}/?url=${encodeURIComponent(url)}`);
  const frame = page.frameLocator("iframe#signing");
  await expect(frame.getByRole("heading", { level: 2, name: "Sign", exact: true })).toBeVisible();
  await expect(messages(page)).toHaveText(["ready"]);
  // Inside the frame: the compact header, no console header or sign-out.
  await expect(frame.getByRole("button", { name: /sign out/i })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath(`embedded-${testInfo.project.name}.png`), fullPage: true });

  // The frame at the top of the parent's viewport: on a phone a tap is aimed at the frame's visible part.
  await page.locator("iframe#signing").evaluate((el) => el.scrollIntoView());
  const panel = new SignPanel(frame as unknown as Page);
  await panel.consent();
  await panel.adoptTyped("Framed Borrower", "Dancing Script");
  await panel.signButton("Document 1.pdf").click();
  await expect(panel.allSigned).toBeVisible();
  await expect(messages(page).filter({ hasText: /^signed$/ })).toHaveCount(1);
  // The only signer: the package is complete as well.
  await expect(messages(page).filter({ hasText: /^completed$/ })).toHaveCount(1);
  await expect(page.getByRole("status")).toHaveText(/signed|complete/);
  await page.screenshot({ path: testInfo.outputPath(`embedded-signed-${testInfo.project.name}.png`), fullPage: true });
  await expectNoAxeViolations(page);

  const [signature] = await handle.db.select().from(eSignatures).where(eq(eSignatures.packageId, pkg.id));
  expect(signature).toBeDefined();
  const trail = await handle.db.select({ action: auditLog.action, after: auditLog.after }).from(auditLog).where(eq(auditLog.packageId, pkg.id));
  expect(trail.find((e) => e.action === "signer.embedded_session_started")?.after).toMatchObject({ origins: [lender] });

  // The same URL again: a refusal inside the frame, told to the parent as an error.
  await page.goto(`${lender}/?url=${encodeURIComponent(url)}`);
  await expect(frame.getByRole("heading", { name: "Signing cannot open" })).toBeVisible();
  await expect(frame.getByText("already been used")).toBeVisible();
  await expect(messages(page).filter({ hasText: "error (used)" })).toHaveCount(1);
});

test("a URL the service does not know shows nothing inside the lender's page, which says so when no ready arrives", async ({ page, baseURL }) => {
  const lender = await serveExample();
  await page.clock.install();
  await page.goto(`${lender}/?url=${encodeURIComponent(`${baseURL}/embed/${randomBytes(24).toString("base64url")}`)}`);
  await expect(page.getByRole("status")).toHaveText("Loading the documents…");
  await page.clock.fastForward(16_000);
  await expect(page.getByRole("status")).toHaveText("Signing could not open. Reload the page to try again.");
  await expect(messages(page)).toHaveCount(0);
  await expect(page.frameLocator("iframe#signing").getByRole("heading", { name: "Signing cannot open" })).toHaveCount(0);
});

test("declining inside the frame tells the parent declined", async ({ page, baseURL }) => {
  const lender = await serveExample();
  const { pkg, url } = await embeddedUrlFor(baseURL!, [lender]);
  await page.goto(`${lender}/?url=${encodeURIComponent(url)}`);
  const frame = page.frameLocator("iframe#signing");
  await expect(messages(page)).toHaveText(["ready"]);
  await page.locator("iframe#signing").evaluate((el) => el.scrollIntoView());

  await frame.getByRole("button", { name: "Decline to sign" }).click();
  const dialog = frame.getByRole("dialog", { name: "Decline this package?" });
  await dialog.getByLabel("Reason for declining").fill("The rate is not what we agreed");
  await dialog.getByRole("button", { name: "Decline the package" }).click();
  await expect(frame.getByRole("heading", { name: "You declined this package" })).toBeVisible();
  await expect(messages(page).filter({ hasText: /^declined$/ })).toHaveCount(1);
  // Declining is not signing, and the package is not complete.
  await expect(messages(page).filter({ hasText: /^(signed|completed)$/ })).toHaveCount(0);
  const [signer] = await handle.db.select().from(packageSigners).where(eq(packageSigners.id, pkg.signers[0]!.id));
  expect(signer!.status).toBe("declined");
  await expectNoAxeViolations(page);
});

test("the bank step inside the frame tells the parent bank_linked once the signer's account is linked", async ({ page, baseURL }) => {
  const lender = await serveExample();
  const { pkg, url } = await embeddedUrlFor(baseURL!, [lender]);
  await page.goto(`${lender}/?url=${encodeURIComponent(url)}`);
  await expect(messages(page)).toHaveText(["ready"]);
  const framed = () => page.frames().find((f) => f.url().startsWith(`${baseURL}/signings/${pkg.id}`))!;
  await expect.poll(() => Boolean(framed())).toBe(true);

  // Not linked yet: the bank step inside the frame says ready and nothing more.
  await framed().goto(`${baseURL}/signings/${pkg.id}/bank`);
  await expect(messages(page).filter({ hasText: /^ready$/ })).toHaveCount(2);
  await expect(messages(page).filter({ hasText: /^bank_linked$/ })).toHaveCount(0);

  // The signer's account is linked (the Plaid exchange itself is covered by bank-step.spec.ts, against a fake Plaid):
  // the bank step, opened again in the frame, tells the parent.
  await handle.db.insert(bankItems).values({
    signerId: pkg.signers[0]!.id,
    itemId: `item-embedded-${randomBytes(4).toString("hex")}`,
    institutionId: "ins_109508",
    institutionName: "First Platypus Bank",
    accessTokenCiphertext: "not-a-real-token",
  });
  await framed().goto(`${baseURL}/signings/${pkg.id}/bank`);
  await expect(messages(page).filter({ hasText: /^bank_linked$/ })).toHaveCount(1);
  await expect(page.getByRole("status")).toHaveText(/bank account is linked/);
});

test("a page whose origin is not on the list cannot frame signing nor spend the URL, and the app's other pages are never framable", async ({ page, baseURL }) => {
  const allowed = await serveExample();
  const stranger = await serveExample();
  const { url } = await embeddedUrlFor(baseURL!, [allowed]);
  const refused: string[] = [];
  page.on("console", (message) => {
    if (/frame-ancestors|X-Frame-Options/i.test(message.text())) refused.push(message.text());
  });

  await page.goto(`${stranger}/?url=${encodeURIComponent(url)}`);
  await expect.poll(() => refused.length).toBeGreaterThan(0);
  await expect(page.frameLocator("iframe#signing").getByRole("heading", { level: 2, name: "Sign", exact: true })).toHaveCount(0);
  await expect(messages(page)).toHaveCount(0);

  // The stranger's frame did not spend the URL: from the lender's own page it opens.
  await page.goto(`${allowed}/?url=${encodeURIComponent(url)}`);
  await expect(page.frameLocator("iframe#signing").getByRole("heading", { level: 2, name: "Sign", exact: true })).toBeVisible();
  await expect(messages(page)).toHaveText(["ready"]);

  // The sign-in page, framed by the allowed origin: refused as well.
  refused.length = 0;
  await page.goto(`${allowed}/?url=${encodeURIComponent(`${baseURL}/sign-in`)}`);
  await expect.poll(() => refused.length).toBeGreaterThan(0);
  await expect(page.frameLocator("iframe#signing").getByRole("button", { name: /sign in/i })).toHaveCount(0);
});

test("the organization admin lists the sites allowed to frame signing in the workspace settings", { tag: "@desktop" }, async ({ page }) => {
  await signInAs(page, "owner@demo.local");
  await page.goto("/workspace/settings");
  const field = page.getByLabel("Sites allowed to show signing inside their pages");
  const form = page.getByRole("form", { name: "Embedded signing" });

  // A path is refused: nothing saved, what was typed kept, the line named.
  await field.fill("https://portal.lender.example\nhttps://evil.example/embed");
  await form.getByRole("button", { name: "Save sites" }).click();
  await expect(form.getByText(/origins\[1\]: must be scheme:\/\/host/)).toBeVisible();
  await expect(field).toHaveValue("https://portal.lender.example\nhttps://evil.example/embed");

  await field.fill("https://Portal.Lender.example:443\nhttp://localhost:4100");
  await form.getByRole("button", { name: "Save sites" }).click();
  await expect(form.getByRole("status")).toContainText("2 origin(s)");
  await page.reload();
  await expect(field).toHaveValue("https://portal.lender.example\nhttp://localhost:4100");
  await expectNoAxeViolations(page);
});
