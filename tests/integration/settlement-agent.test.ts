import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { and, asc, eq } from "drizzle-orm";
import { lastDeliveredMailTo } from "../helpers/mail";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { auditLog, packageDocuments, scanbackPages, settlementAgentLinks } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { getClosingDetail } from "@/lib/closings/closing-detail";
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { reviewDocumentScan } from "@/lib/closings/review-document-scan";
import { acceptScanback, assignScanbackPage, discardScanbackPage, getScanbackPageImage, getScanbackReport, uploadScanback } from "@/lib/closings/scanback";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { setEnvForTests } from "@/lib/env";
import { log } from "@/lib/log";
import { buildSecurityHeaders } from "@/lib/security/security-headers";
import { agentSessionPrincipal } from "@/lib/auth/agent-session-principal";
import { downloadAgentTablePacket } from "@/lib/settlement-agent/download-agent-table-packet";
import { getAgentClosing } from "@/lib/settlement-agent/get-agent-closing";
import { getAgentLinkStatus } from "@/lib/settlement-agent/get-agent-link-status";
import { getAgentSession } from "@/lib/settlement-agent/get-agent-session";
import { issueAgentLink } from "@/lib/settlement-agent/issue-agent-link";
import { openAgentLink, viewAgentLink } from "@/lib/settlement-agent/open-agent-link";
import { revokeAgentLink } from "@/lib/settlement-agent/revoke-agent-link";
import { createSigning } from "@/lib/signings/create-signing";
import { sendSigning } from "@/lib/signings/send-signing";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ensureUser, managerOf } from "../helpers/signing-fixtures";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "agent-test-"));
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let testDb: TestDb;
let world: DemoWorld;
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
}, 120_000);
afterAll(async () => {
  await testDb?.cleanup();
});

/** A package: an e-signed disclosure, a 2-page wet_sign note; sent unless `draft`; appointment at `closingAt`. */
async function inkPackage(options: { draft?: boolean; closingAt?: string; inkless?: boolean } = {}) {
  counter += 1;
  const borrower = await ensureUser(testDb.db, `agent-borrower-${counter}@demo.local`);
  const manager = await managerOf(testDb.db, world.austin.organizationId);
  const pdf = (title: string, pages = 1) => renderAgreementPdf({ title: `${title} ${counter}`, parties: ["Borrower"], pages });
  const created = await createSigning(testDb.db, {
    principal: manager,
    locationId: world.austin.id,
    title: `Agent closing ${counter}`,
    signers: [{ name: "Pat Borrower", email: borrower.email }],
    documents: [
      { name: "Disclosure.pdf", bytes: await pdf("Disclosure") },
      ...(options.inkless ? [] : [{ name: "Note.pdf", bytes: await pdf("Note", 2), executionMode: "wet_sign" as const }]),
    ],
    ...(options.closingAt ? { appointment: { closingAt: options.closingAt, closingPlace: "Title office", settlementAgent: "Dana Reyes" } } : {}),
  });
  if (!options.draft) await sendSigning(testDb.db, { principal: manager, packageId: created.id });
  const docs = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, created.id)).orderBy(asc(packageDocuments.position));
  return { id: created.id, manager, disclosure: docs[0]!, note: docs[1] };
}

const agentEmail = () => `agent-${counter}@title.example`;

async function issue(pkg: { id: string; manager: Principal }, now?: Date) {
  return issueAgentLink(testDb.db, { principal: pkg.manager, packageId: pkg.id, input: { agentName: "Dana Reyes", agentEmail: agentEmail() }, now });
}

/** The newest email to `to` from the outbox jobs. */
async function lastMailTo(to: string) {
  return lastDeliveredMailTo(testDb.db, to);
}

async function tokenFromMail(to: string): Promise<string> {
  const match = /\/agent\/([A-Za-z0-9_-]{43})\b/.exec((await lastMailTo(to)).text);
  if (!match) throw new Error(`no agent link in the last mail to ${to}`);
  return match[1]!;
}

/** Issue a link, open it, and answer the agent's principal as the session cookie resolves it. */
async function agentOf(pkg: { id: string; manager: Principal }) {
  await issue(pkg);
  const opened = await openAgentLink(testDb.db, { token: await tokenFromMail(agentEmail()), ipAddress: "203.0.113.9", userAgent: "AgentBrowser/1" });
  if (!opened) throw new Error("link did not open");
  const context = await getAgentSession(testDb.db, { packageId: pkg.id, value: opened.sessionValue });
  if (!context) throw new Error("no live agent session");
  return { principal: agentSessionPrincipal(context.link), sessionValue: opened.sessionValue };
}

async function packetPages(pkg: { id: string; manager: Principal }): Promise<string[]> {
  const packet = await getTablePacket(testDb.db, { principal: pkg.manager, packageId: pkg.id });
  const file = join(dir, `packet-${pkg.id}.pdf`);
  writeFileSync(file, packet.content);
  await run("pdftoppm", ["-r", "150", "-gray", "-png", file, join(dir, `pk-${pkg.id}`)]);
  return readdirSync(dir)
    .filter((f) => f.startsWith(`pk-${pkg.id}-`) && f.endsWith(".png"))
    .sort()
    .map((f) => join(dir, f));
}

const entries = (packageId: string, action: string) =>
  testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, packageId), eq(auditLog.action, action))).orderBy(asc(auditLog.id));

describe("settlement agent link", () => {
  it("is emailed under the lender's brand as a 256-bit one-time link, stored only as its SHA-256; the GET burns nothing, the POST opens it once", async () => {
    const pkg = await inkPackage({ closingAt: "2030-03-02T15:00:00Z" });
    const link = await issue(pkg);
    const mail = await lastMailTo(agentEmail());
    expect(mail.subject).toBe(`Closing documents: Agent closing ${counter}`);
    expect(mail.text).toContain("Hello Dana Reyes");
    expect(mail.text).toContain("Appointment:");
    const token = await tokenFromMail(agentEmail());
    const [row] = await testDb.db.select().from(settlementAgentLinks).where(eq(settlementAgentLinks.id, link.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    // Appointment + 7 days.
    expect(row!.expiresAt.toISOString()).toBe("2030-03-09T15:00:00.000Z");
    const [issued] = await entries(pkg.id, "settlement_agent.link_issued");
    expect(issued).toMatchObject({ actorUserId: pkg.manager.user.id, after: { agentName: "Dana Reyes", agentEmail: agentEmail() } });
    expect(JSON.stringify(issued)).not.toContain(token);

    expect(await viewAgentLink(testDb.db, { token })).toMatchObject({ state: "open", title: `Agent closing ${counter}`, agentName: "Dana Reyes" });
    expect(await viewAgentLink(testDb.db, { token })).toMatchObject({ state: "open" });
    expect(await getAgentLinkStatus(testDb.db, { principal: pkg.manager, packageId: pkg.id })).toMatchObject({ state: "sent", openedAt: null });

    const opened = await openAgentLink(testDb.db, { token, ipAddress: "203.0.113.9", userAgent: "AgentBrowser/1" });
    expect(opened).toMatchObject({ packageId: pkg.id });
    expect(opened!.sessionValue).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(opened!.sessionValue).not.toBe(token);
    const [after] = await testDb.db.select().from(settlementAgentLinks).where(eq(settlementAgentLinks.id, link.id));
    expect(JSON.stringify(after)).not.toContain(opened!.sessionValue);
    // Once only.
    expect(await openAgentLink(testDb.db, { token })).toBeNull();
    expect(await viewAgentLink(testDb.db, { token })).toEqual({ state: "unusable" });
    const [openedEntry] = await entries(pkg.id, "settlement_agent.link_opened");
    expect(openedEntry).toMatchObject({ actorUserId: null, ipAddress: "203.0.113.9", after: { actor: { type: "settlement_agent", name: "Dana Reyes" }, userAgent: "AgentBrowser/1" } });
    expect(await getAgentLinkStatus(testDb.db, { principal: pkg.manager, packageId: pkg.id })).toMatchObject({ state: "opened" });
  });

  it("refuses a draft, a package with nothing in ink and a bad address, and changes nothing", async () => {
    const draft = await inkPackage({ draft: true });
    await expect(issue(draft)).rejects.toMatchObject({ status: 409, reason: "package_closed" });
    const inkless = await inkPackage({ inkless: true });
    await expect(issue(inkless)).rejects.toMatchObject({ status: 409 });
    const pkg = await inkPackage();
    await expect(
      issueAgentLink(testDb.db, { principal: pkg.manager, packageId: pkg.id, input: { agentName: "Dana", agentEmail: "not-an-address" } }),
    ).rejects.toMatchObject({ status: 400 });
    for (const id of [draft.id, inkless.id, pkg.id]) {
      expect(await testDb.db.select().from(settlementAgentLinks).where(eq(settlementAgentLinks.packageId, id))).toHaveLength(0);
    }
  });

  it("expires 7 days after the appointment (at least 7 days after issue); the session ends after 12 hours or 2 idle hours", async () => {
    const issuedAt = new Date("2031-01-10T12:00:00Z");
    // An appointment already past: the link still lasts 7 days from issue.
    const pkg = await inkPackage({ closingAt: "2031-01-01T12:00:00Z" });
    const link = await issue(pkg, issuedAt);
    expect(link.expiresAt.toISOString()).toBe("2031-01-17T12:00:00.000Z");
    const token = await tokenFromMail(agentEmail());
    expect(await viewAgentLink(testDb.db, { token, now: new Date(link.expiresAt.getTime() + 1) })).toEqual({ state: "unusable" });
    expect(await openAgentLink(testDb.db, { token, now: new Date(link.expiresAt.getTime() + 1) })).toBeNull();
    expect(await getAgentLinkStatus(testDb.db, { principal: pkg.manager, packageId: pkg.id, now: new Date(link.expiresAt.getTime() + 1) })).toMatchObject({ state: "expired" });

    const openedAt = new Date(link.expiresAt.getTime() - 3 * DAY);
    const opened = await openAgentLink(testDb.db, { token, now: openedAt });
    const value = opened!.sessionValue;
    const at = (ms: number) => getAgentSession(testDb.db, { packageId: pkg.id, value, now: new Date(openedAt.getTime() + ms) });
    expect(await at(HOUR)).not.toBeNull();
    expect(await at(2 * HOUR + 60_000)).not.toBeNull(); // the request an hour ago kept it alive
    expect(await at(4 * HOUR + 120_001)).toBeNull(); // 2 hours idle
    expect(await at(12 * HOUR)).toBeNull(); // past its 12 hours
  });

  it("a session is ended by revoking, and by reissuing; a revoked link shows as no longer working", async () => {
    const pkg = await inkPackage();
    const first = await agentOf(pkg);
    await revokeAgentLink(testDb.db, { principal: pkg.manager, packageId: pkg.id });
    expect(await getAgentSession(testDb.db, { packageId: pkg.id, value: first.sessionValue })).toBeNull();
    expect(await getAgentLinkStatus(testDb.db, { principal: pkg.manager, packageId: pkg.id })).toMatchObject({ state: "revoked" });
    await expect(revokeAgentLink(testDb.db, { principal: pkg.manager, packageId: pkg.id })).rejects.toMatchObject({ status: 409 });
    expect(await entries(pkg.id, "settlement_agent.link_revoked")).toHaveLength(1);

    // A new link works; issuing another revokes it (unopened) and the session of an opened one.
    await issue(pkg);
    const unopened = await tokenFromMail(agentEmail());
    const second = await agentOf(pkg);
    expect(await viewAgentLink(testDb.db, { token: unopened })).toEqual({ state: "unusable" });
    await issue(pkg);
    expect(await getAgentSession(testDb.db, { packageId: pkg.id, value: second.sessionValue })).toBeNull();
    expect(await viewAgentLink(testDb.db, { token: await tokenFromMail(agentEmail()) })).toMatchObject({ state: "open" });
  });
});

describe("what a settlement agent session reaches", () => {
  it("sees the appointment, the borrowers and the ink documents only; downloads the packet and uploads through the same matching, recorded as the agent", async () => {
    const pkg = await inkPackage({ closingAt: "2030-05-01T15:00:00Z" });
    const { principal } = await agentOf(pkg);
    const closing = await getAgentClosing(testDb.db, { principal, packageId: pkg.id });
    expect(closing.borrowers).toEqual(["Pat Borrower"]);
    expect(closing.documents.map((d) => d.name)).toEqual(["Note.pdf"]);
    expect(closing.signing.closingAt?.toISOString()).toBe("2030-05-01T15:00:00.000Z");

    const packet = await downloadAgentTablePacket(testDb.db, { principal, packageId: pkg.id, ipAddress: "203.0.113.9" });
    const managers = await getTablePacket(testDb.db, { principal: pkg.manager, packageId: pkg.id });
    expect(Buffer.from(packet.content).equals(Buffer.from(managers.content))).toBe(true);
    const [download] = await entries(pkg.id, "settlement_agent.packet_downloaded");
    expect(download).toMatchObject({ actorUserId: null, after: { actor: { type: "settlement_agent", name: "Dana Reyes" } } });

    const [cover, note1, note2] = (await packetPages(pkg)) as [string, string, string];
    const result = await uploadScanback(testDb.db, {
      principal,
      packageId: pkg.id,
      files: [
        { name: "note-2.png", bytes: readFileSync(note2) },
        { name: "cover.png", bytes: readFileSync(cover) },
        { name: "note-1.png", bytes: readFileSync(note1) },
      ],
      ipAddress: "203.0.113.9",
    });
    const byName = Object.fromEntries(result.report.pages.map((p) => [p.sourceName, [p.status, p.documentName, p.pageNumber]]));
    expect(byName).toEqual({ "note-2.png": ["matched", "Note.pdf", 2], "cover.png": ["unreadable", null, null], "note-1.png": ["matched", "Note.pdf", 1] });
    expect(result.report.documents).toMatchObject([{ name: "Note.pdf", pagesFound: [1, 2], missingPages: [], ready: true }]);
    const [uploaded] = await entries(pkg.id, "scanback.uploaded");
    expect(uploaded).toMatchObject({ actorUserId: null, ipAddress: "203.0.113.9", after: { actor: { type: "settlement_agent", name: "Dana Reyes" }, pages: 3, matched: 2, unreadable: 1 } });
    const stored = await testDb.db.select().from(scanbackPages).where(eq(scanbackPages.packageId, pkg.id));
    expect(stored.map((p) => p.uploadedByUserId)).toEqual([null, null, null]);
    // The manager sees the agent's pages in the same report, and the agent sees a page's image.
    expect((await getScanbackReport(testDb.db, { principal: pkg.manager, packageId: pkg.id })).pages).toHaveLength(3);
    const image = await getScanbackPageImage(testDb.db, { principal, packageId: pkg.id, pageId: result.report.pages[0]!.id });
    expect(image.contentType).toMatch(/^image\//);

    // No manager step: attach, assign, discard, review, the manager's closing view.
    const page = result.report.pages.find((p) => p.sourceName === "cover.png")!;
    await expect(acceptScanback(testDb.db, { principal, packageId: pkg.id })).rejects.toMatchObject({ status: 403 });
    await expect(assignScanbackPage(testDb.db, { principal, packageId: pkg.id, pageId: page.id, assignment: { documentId: pkg.note!.id, pageNumber: 1 } })).rejects.toMatchObject({ status: 403 });
    await expect(discardScanbackPage(testDb.db, { principal, packageId: pkg.id, pageId: page.id })).rejects.toMatchObject({ status: 403 });
    await expect(getClosingDetail(testDb.db, { principal, packageId: pkg.id })).rejects.toMatchObject({ status: 403 });

    // Once the manager attaches and the agent's scan awaits review, the agent still cannot review it.
    await acceptScanback(testDb.db, { principal: pkg.manager, packageId: pkg.id });
    await expect(
      reviewDocumentScan(testDb.db, { principal, packageId: pkg.id, documentId: pkg.note!.id, review: { decision: "accept" } }),
    ).rejects.toMatchObject({ status: 403 });
    expect((await getAgentClosing(testDb.db, { principal, packageId: pkg.id })).documents[0]!.executionStatus).toBe("scan_uploaded");
  });

  it("reaches no other package: its session is no cookie there and its principal gets 404", async () => {
    const mine = await inkPackage();
    const other = await inkPackage();
    const { principal, sessionValue } = await agentOf(mine);
    expect(await getAgentSession(testDb.db, { packageId: other.id, value: sessionValue })).toBeNull();
    await expect(getAgentClosing(testDb.db, { principal, packageId: other.id })).rejects.toMatchObject({ status: 404 });
    await expect(getTablePacket(testDb.db, { principal, packageId: other.id })).rejects.toMatchObject({ status: 404 });
    await expect(getScanbackReport(testDb.db, { principal, packageId: other.id })).rejects.toMatchObject({ status: 404 });
    const [, otherNote1] = (await packetPages(other)) as [string, string];
    await expect(
      uploadScanback(testDb.db, { principal, packageId: other.id, files: [{ name: "x.png", bytes: readFileSync(otherNote1) }] }),
    ).rejects.toMatchObject({ status: 404 });
    // A page of the other package uploaded to the agent's own package is reported as such, never used.
    const own = await uploadScanback(testDb.db, { principal, packageId: mine.id, files: [{ name: "other.png", bytes: readFileSync(otherNote1) }] });
    expect(own.report.pages.map((p) => p.status)).toEqual(["other_package"]);
    expect(await testDb.db.select().from(scanbackPages).where(eq(scanbackPages.packageId, other.id))).toHaveLength(0);
  });
});

describe("the token stays out of logs and Referers", () => {
  it("a log line with an agent link has the token redacted", () => {
    setEnvForTests({ LOG_LEVEL: "debug" });
    const token = "Zm9vYmFyYmF6cXV4cXV1eGNvcmdlZ3JhdWx0Z2FycGx5".slice(0, 43);
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line));
    const errors = vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    try {
      log.info(`GET /agent/${token}`, { url: `https://sign.example.com/agent/${token}` });
      log.error("failed", { path: `/agent/${token}` });
    } finally {
      spy.mockRestore();
      errors.mockRestore();
    }
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).not.toContain(token);
  });

  it("the link's page sends no Referer; the closing page (no token in it) keeps the usual policy", () => {
    const headers = (pathname: string) => buildSecurityHeaders({ nonce: "n", pathname, production: true, appUrl: "https://sign.example.com", plaidEnvironment: "sandbox" });
    expect(headers("/agent/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG")["Referrer-Policy"]).toBe("no-referrer");
    expect(headers("/agent/closing/00000000-0000-4000-8000-000000000000")["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
  });
});
