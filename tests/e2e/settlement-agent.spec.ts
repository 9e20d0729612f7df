import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { locations } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { createSigning } from "@/lib/signings/create-signing";
import { sendSigning } from "@/lib/signings/send-signing";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { lastDeliveredMailTo } from "../helpers/mail";
import { withE2eDb } from "./support/signing-data";

// The settlement agent's one-time link: the manager emails it from the Closing page; the agent, in a
// browser of their own without an account, opens it from the email (a `send-email` job, what the dev
// outbox lists), lands on /agent/closing/<id> with no token in the address, downloads the table packet,
// prints it to images (pdftoppm) and uploads them, and reads the page-by-page report. The used link
// and, after the manager revokes it, the session say "This link no longer works".

const MANAGER = "manager@demo.local";
const AGENT_EMAIL = `agent-${Date.now().toString(36)}@title.example`;
const run = promisify(execFile);

async function createHybridPackage(): Promise<{ id: string; title: string }> {
  const title = `Agent closing ${Date.now().toString(36)}`;
  return withE2eDb(async (db) => {
    const [austin] = await db.select().from(locations).where(eq(locations.name, "Austin Branch"));
    const manager = await resolvePrincipal(db, localSubjectForEmail(MANAGER));
    const pdf = (name: string, pages = 1) => renderAgreementPdf({ title: name, parties: ["Borrower"], pages });
    const created = await createSigning(db, {
      principal: manager,
      locationId: austin!.id,
      title,
      signers: [{ name: "Sam Signer", email: "signer@demo.local" }],
      documents: [
        { name: "Disclosure.pdf", bytes: await pdf("Disclosure") },
        { name: "Note.pdf", bytes: await pdf("Note", 2), executionMode: "wet_sign" },
      ],
      appointment: { closingAt: "2030-12-01T15:00:00Z", closingPlace: "Title office, 1 Main St", settlementAgent: "Sam Agent" },
    });
    await sendSigning(db, { principal: manager, packageId: created.id });
    return { id: created.id, title };
  });
}

/** The path of the agent link in the newest email to `to`. */
async function agentLinkFromMail(to: string): Promise<string> {
  return withE2eDb(async (db) => {
    const mail = await lastDeliveredMailTo(db, to);
    const match = /https?:\/\/\S+\/agent\/[A-Za-z0-9_-]{43}/.exec(mail.text);
    if (!match) throw new Error(`no agent link in the last mail to ${to}`);
    return new URL(match[0]).pathname;
  });
}

const noHorizontalScroll = (page: import("@playwright/test").Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test.describe("the settlement agent's link", () => {
  test.beforeEach(() => {
    test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create packages and read the outbox (PGlite is held by the server)");
  });

  test("issued by the manager, opened from the email, packet downloaded, scans uploaded and reported; used and revoked links end", { tag: "@desktop" }, async ({ page, browser }, testInfo) => {
    test.setTimeout(360_000);
    const pkg = await createHybridPackage();

    // The manager emails the link from the Closing page.
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInAs(page, MANAGER, { landsOn: `/signings/${pkg.id}` });
    await page.goto(`/signings/${pkg.id}/closing`);
    const section = page.getByRole("region", { name: "Settlement agent link" });
    await expect(section.getByTestId("agent-link-status")).toHaveText("No link sent yet.");
    await expect(section.getByLabel("Settlement agent's name")).toHaveValue("Sam Agent");
    await section.getByLabel("Settlement agent's email").fill("not an address");
    await section.getByLabel("Settlement agent's email").evaluate((input: HTMLInputElement) => (input.type = "text"));
    await section.getByRole("button", { name: "Email the link" }).click();
    await expect(section.getByRole("status")).toContainText("give the settlement agent's email address");
    await expect(section.getByLabel("Settlement agent's email")).toHaveValue("not an address");
    await section.getByLabel("Settlement agent's email").fill(AGENT_EMAIL);
    await section.getByRole("button", { name: "Email the link" }).click();
    await expect(section.getByText(`Link emailed to Sam Agent (${AGENT_EMAIL}); any older link no longer works.`)).toBeVisible();
    await expect(section.getByTestId("agent-link-status")).toContainText(`Sent to Sam Agent (${AGENT_EMAIL})`);
    await expectNoAxeViolations(page);
    await section.screenshot({ path: testInfo.outputPath("manager-agent-link-1280.png") });

    // The agent, on a phone, without an account: the email's link, one button, then a token-free address.
    const agentContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const agent = await agentContext.newPage();
    const linkPath = await agentLinkFromMail(AGENT_EMAIL);
    await agent.goto(linkPath);
    await expect(agent.getByRole("heading", { level: 1, name: pkg.title })).toBeVisible();
    await expectNoAxeViolations(agent);
    await agent.screenshot({ path: testInfo.outputPath("agent-link-390.png"), fullPage: true });
    await agent.getByRole("button", { name: "Open the closing" }).click();
    await agent.waitForURL(`**/agent/closing/${pkg.id}`);
    expect(agent.url()).not.toContain(linkPath.split("/").pop()!);
    await expect(agent.getByRole("heading", { level: 1, name: pkg.title })).toBeVisible();
    await expect(agent.getByText("Sam Signer")).toBeVisible();
    await expect(agent.getByText("December 1, 2030 at 3:00 PM UTC")).toBeVisible();
    await expect(agent.getByTestId("agent-documents")).toContainText("Note.pdf");
    await expect(agent.getByTestId("agent-documents")).not.toContainText("Disclosure.pdf");
    const cookies = await agentContext.cookies();
    expect(cookies.find((c) => c.name === `csk-agent-${pkg.id}`)).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    await expectNoAxeViolations(agent);

    // The packet as the agent downloads it, printed to PNGs: cover, note page 1, note page 2.
    const dir = mkdtempSync(join(tmpdir(), "e2e-agent-"));
    const [download] = await Promise.all([agent.waitForEvent("download"), agent.getByRole("link", { name: "Download the table packet (PDF)" }).click()]);
    await download.saveAs(join(dir, "packet.pdf"));
    await run("pdftoppm", ["-r", "150", "-gray", "-png", join(dir, "packet.pdf"), join(dir, "pk")]);
    const pages = readdirSync(dir).filter((f) => f.startsWith("pk-")).sort().map((f) => join(dir, f));
    expect(pages).toHaveLength(3);

    await agent.getByLabel("Scanned files").setInputFiles(pages);
    await agent.getByRole("button", { name: "Upload and check" }).click();
    await expect(agent.getByText("Read 3 pages: 2 matched, 1 could not be placed. The report below shows each page.")).toBeVisible({ timeout: 60_000 });
    await expect(agent.getByTestId("scanback-documents")).toHaveText("Note.pdf: 2 of 2 pages · ready to attach");
    const rows = agent.getByTestId("scanback-page");
    await expect(rows).toHaveCount(3);
    await expect(rows.filter({ hasText: "pk-2.png" })).toContainText("MatchedNote.pdf, page 1");
    await expect(rows.filter({ hasText: "pk-3.png" })).toContainText("MatchedNote.pdf, page 2");
    await expect(rows.filter({ hasText: "pk-1.png" })).toContainText("Unreadable");
    // The agent has no manager step on this page.
    await expect(agent.getByRole("button", { name: /Assign page|Discard|Attach|Accept|Reject/ })).toHaveCount(0);
    await expectNoAxeViolations(agent);
    expect(await noHorizontalScroll(agent)).toBe(true);
    await agent.screenshot({ path: testInfo.outputPath("agent-report-390.png"), fullPage: true });
    await agent.setViewportSize({ width: 1280, height: 900 });
    await agent.screenshot({ path: testInfo.outputPath("agent-report-1280.png"), fullPage: true });
    await expectNoAxeViolations(agent);

    // The used link ends; a package the session is not for is not reachable.
    const second = await agentContext.newPage();
    await second.goto(linkPath);
    await expect(second.getByRole("heading", { level: 1, name: "This link no longer works" })).toBeVisible();
    await expectNoAxeViolations(second);
    await second.screenshot({ path: testInfo.outputPath("agent-link-ended-390.png"), fullPage: true });
    const other = await createHybridPackage();
    await second.goto(`/agent/closing/${other.id}`);
    await expect(second.getByRole("heading", { level: 1, name: "This link no longer works" })).toBeVisible();
    expect((await second.request.get(`/agent/closing/${other.id}/table-packet`)).status()).toBe(401);

    // The manager sees the agent's pages and the link opened, then revokes it: the agent's session ends.
    await page.reload();
    await expect(page.getByTestId("scanback-page")).toHaveCount(3);
    await expect(section.getByTestId("agent-link-status")).toContainText("opened on");
    await section.getByRole("button", { name: "Revoke the link" }).click();
    await expect(section.getByTestId("agent-link-status")).toContainText("was revoked on");
    await agent.reload();
    await expect(agent.getByRole("heading", { level: 1, name: "This link no longer works" })).toBeVisible();
    expect((await agent.request.get(`/agent/closing/${pkg.id}/table-packet`)).status()).toBe(401);

    // The audit trail names the agent.
    await page.goto(`/signings/${pkg.id}`);
    await expect(page.getByText("Sam Agent (settlement agent)").first()).toBeVisible();
    await agentContext.close();
  });
});
