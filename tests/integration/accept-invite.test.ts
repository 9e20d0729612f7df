import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { AppRouterContext, type AppRouterInstance } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { auditLog, jobs, outboxEmails, userInviteTokens, users } from "@/db/schema";
import AcceptInvitePage from "@/app/(auth)/accept-invite/page";
import { acceptInviteAction } from "@/app/(auth)/accept-invite/actions";
import { acceptInvite } from "@/lib/sign-in/accept-invite";
import { findInvite } from "@/lib/auth/find-invite";
import { INVITE_LINK_MESSAGES, INVITE_TOKEN_TTL_MS } from "@/lib/auth/invite-token-format";
import { signInWithPassword } from "@/lib/sign-in/sign-in-with-password";
import { getEnv, setEnvForTests } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";

const Membership = z.object({ id: z.uuid(), user: z.object({ id: z.uuid(), email: z.string(), pending: z.boolean() }) });
const PASSWORD = "correct horse battery staple";

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  setEnvForTests({ SMTP_URL: undefined, CLERK_SECRET_KEY: undefined, CLERK_JWT_KEY: undefined });
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});
afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

/** Invites `email` as owner@demo.local through the API, delivers the mail, returns the membership and the mail. */
async function invite(email: string, body: Record<string, unknown> = {}) {
  const res = await callApi("/v1/workspace/memberships", {
    token: await tokenFor("owner@demo.local"),
    json: { email, role: "manager", ...body },
  });
  expect(res.status, res.text).toBe(201);
  const membership = Membership.parse(res.body);
  await runDueJobs(testDb.db, { workerId: "accept-invite-test" });
  const mails = await testDb.db.select().from(outboxEmails).where(eq(outboxEmails.to, email)).orderBy(asc(outboxEmails.createdAt), asc(outboxEmails.id));
  return { membership, mail: mails.at(-1)!, mailCount: mails.length };
}

function linkToken(text: string): string {
  const match = new RegExp(`${getEnv().APP_URL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/accept-invite\\?token=([A-Za-z0-9_-]+)`).exec(text);
  expect(match, text).not.toBeNull();
  return match![1]!;
}

async function userByEmail(email: string) {
  const [user] = await testDb.db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return user!;
}

async function tokensOf(userId: string) {
  return testDb.db.select().from(userInviteTokens).where(eq(userInviteTokens.userId, userId)).orderBy(asc(userInviteTokens.createdAt));
}

/** The client form uses the App Router (`useRouter`), which `next` provides outside of tests. */
const router: AppRouterInstance = { back() {}, forward() {}, refresh() {}, push() {}, replace() {}, prefetch() {}, bfcacheId: "test" };

async function renderPage(token: string | undefined): Promise<string> {
  const page = await AcceptInvitePage({ searchParams: Promise.resolve(token === undefined ? {} : { token }) });
  return renderToStaticMarkup(createElement(AppRouterContext.Provider, { value: router }, page));
}

/** How React writes a text into HTML. */
function asHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("'", "&#x27;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("accepting an invitation (local identity provider)", () => {
  let token: string;
  let email: string;

  it("the invitation email carries a single-use link; only the token's SHA-256 is stored", async () => {
    email = "Ivy.Invitee@Example.com";
    const before = Date.now();
    const { membership, mail } = await invite(email, { name: "Ivy Invitee", locationId: world.dallas.id });
    expect(mail.subject).toBe("You're invited to Demo Lending Co.");
    expect(mail.text).toContain("Olive Owner invited you to Demo Lending Co. as manager.");
    expect(mail.text).toContain(`${getEnv().APP_URL}/sign-in`);
    token = linkToken(mail.text);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const user = await userByEmail(email);
    expect(user).toMatchObject({ id: membership.user.id, authProvider: "local", authSubject: "local|ivy.invitee@example.com", passwordHash: null });
    const rows = await tokensOf(user.id);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row).toMatchObject({ usedAt: null, revokedAt: null, organizationId: world.dallas.organizationId });
    expect(row.expiresAt.getTime()).toBeGreaterThanOrEqual(before + INVITE_TOKEN_TTL_MS - 1000);
    expect(row.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + INVITE_TOKEN_TTL_MS + 1000);
    // The email job keeps its idempotency key: one job, one mail per invitation.
    const inviteJobs = await testDb.db.select().from(jobs).where(eq(jobs.idempotencyKey, `invite:${membership.id}`));
    expect(inviteJobs).toHaveLength(1);
  });

  it("the page shows the invited email and organization and a labelled password form", async () => {
    const html = await renderPage(token);
    expect(html).toContain("Accept your invitation");
    expect(html).toContain("Ivy.Invitee@Example.com");
    expect(html).toContain("Demo Lending Co.");
    expect(html).toMatch(/<label for="new-password"[^>]*>New password<\/label>/);
    expect(html).toMatch(/<label for="confirm-password"[^>]*>Repeat the password<\/label>/);
    expect(html).toMatch(/autocomplete="new-password"/i);
    expect(html).toContain('role="alert"');
    expect(await findInvite(testDb.db, { token })).toMatchObject({ status: "valid", email, organizationName: "Demo Lending Co." });
  });

  it("refuses a short password and mismatched passwords, and leaves the link usable", async () => {
    const short = await refusal(acceptInvite(testDb.db, { token, password: "elevenchars" }));
    expect(short).toMatchObject({ code: "bad_request", message: "Choose a password of at least 12 characters." });
    expect(await refusal(acceptInvite(testDb.db, { token, password: " ".repeat(20) }))).toMatchObject({ code: "bad_request" });
    expect(await acceptInviteAction({ token, password: "short", confirmPassword: "short" })).toEqual({
      status: "invalid-password",
      field: "password",
      message: "Choose a password of at least 12 characters.",
    });
    const tooLong = "x".repeat(1025);
    expect(await acceptInviteAction({ token, password: tooLong, confirmPassword: tooLong })).toMatchObject({ status: "invalid-password", field: "password" });
    expect(await acceptInviteAction({ token, password: PASSWORD, confirmPassword: `${PASSWORD}!` })).toEqual({
      status: "invalid-password",
      field: "confirmPassword",
      message: "The two passwords do not match.",
    });
    const user = await userByEmail(email);
    expect(user.passwordHash).toBeNull();
    expect((await tokensOf(user.id))[0]!.usedAt).toBeNull();
  });

  it("refuses wrong tokens without touching anything", async () => {
    const altered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const wrong of [randomBytes(32).toString("base64url"), altered, "not-a-token", "", `${token}x`]) {
      const error = await refusal(acceptInvite(testDb.db, { token: wrong, password: PASSWORD }));
      expect(error, wrong).toMatchObject({ code: "not_found", message: INVITE_LINK_MESSAGES.invalid });
      const html = await renderPage(wrong);
      expect(html).toContain(asHtml(INVITE_LINK_MESSAGES.invalid));
      expect(html).not.toContain("<form");
    }
    expect(await renderPage(undefined)).toContain(asHtml(INVITE_LINK_MESSAGES.invalid));
    expect(await acceptInviteAction({ token: altered, password: PASSWORD, confirmPassword: PASSWORD })).toEqual({
      status: "invalid-link",
      message: INVITE_LINK_MESSAGES.invalid,
    });
    expect(await acceptInviteAction({ token: "x".repeat(5000), password: PASSWORD, confirmPassword: PASSWORD })).toEqual({
      status: "invalid-link",
      message: INVITE_LINK_MESSAGES.invalid,
    });
    expect((await userByEmail(email)).passwordHash).toBeNull();
  });

  it("accepts with a password; the invitee then signs in with it; nothing is stored in clear", async () => {
    expect(await signInWithPassword(testDb.db, { email, password: PASSWORD })).toBeNull();
    const result = await acceptInviteAction({ token, password: PASSWORD, confirmPassword: PASSWORD });
    expect(result).toEqual({ status: "accepted", email });

    const user = await userByEmail(email);
    expect(user.passwordHash).toMatch(/^scrypt\$/);
    expect(user.passwordHash).not.toContain(PASSWORD);
    expect(user.authSubject).toBe("local|ivy.invitee@example.com");
    const [row] = await tokensOf(user.id);
    expect(row!.usedAt).toBeInstanceOf(Date);
    const [entry] = await testDb.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "user.invite_accepted"), eq(auditLog.entityId, user.id)));
    expect(entry).toMatchObject({ actorUserId: user.id, organizationId: world.dallas.organizationId });
    expect(JSON.stringify(entry)).not.toContain(PASSWORD);
    expect(JSON.stringify(entry)).not.toContain(token);

    const signedIn = await signInWithPassword(testDb.db, { email: "ivy.invitee@example.com", password: PASSWORD });
    expect(signedIn).toMatchObject({ id: user.id, email });
    expect(await signInWithPassword(testDb.db, { email, password: `${PASSWORD}?` })).toBeNull();
    const members = await callApi("/v1/workspace/members?limit=100", { token: await tokenFor("owner@demo.local") });
    const listed = z.object({ data: z.array(Membership) }).parse(members.body).data.find((m) => m.user.id === user.id);
    expect(listed!.user.pending).toBe(false);
  });

  it("the link works once", async () => {
    const user = await userByEmail(email);
    const error = await refusal(acceptInvite(testDb.db, { token, password: "another password entirely" }));
    expect(error).toMatchObject({ code: "conflict", message: INVITE_LINK_MESSAGES.used });
    expect((await userByEmail(email)).passwordHash).toBe(user.passwordHash);
    const html = await renderPage(token);
    expect(html).toContain(asHtml(INVITE_LINK_MESSAGES.used));
    expect(html).not.toContain("<form");
    expect(await signInWithPassword(testDb.db, { email, password: "another password entirely" })).toBeNull();
    expect(await signInWithPassword(testDb.db, { email, password: PASSWORD })).not.toBeNull();
  });

  it("two simultaneous acceptances of one link: exactly one sets the password", async () => {
    const { mail } = await invite("racer@example.com");
    const raceToken = linkToken(mail.text);
    const results = await Promise.allSettled([
      acceptInvite(testDb.db, { token: raceToken, password: "first racer password" }),
      acceptInvite(testDb.db, { token: raceToken, password: "second racer password" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected");
    expect(rejected?.reason).toMatchObject({ code: "conflict", message: INVITE_LINK_MESSAGES.used });
    const winner = results[0]!.status === "fulfilled" ? "first racer password" : "second racer password";
    expect(await signInWithPassword(testDb.db, { email: "racer@example.com", password: winner })).not.toBeNull();
  });
});

describe("expiry and re-invitation", () => {
  it("refuses an expired link", async () => {
    const { mail } = await invite("late@example.com");
    const token = linkToken(mail.text);
    const user = await userByEmail("late@example.com");
    const [row] = await tokensOf(user.id);

    // Still valid one minute before the end, refused from the end on.
    const almost = new Date(row!.expiresAt.getTime() - 60_000);
    expect(await findInvite(testDb.db, { token, now: almost })).toMatchObject({ status: "valid" });
    const atExpiry = await refusal(acceptInvite(testDb.db, { token, password: PASSWORD, now: row!.expiresAt }));
    expect(atExpiry).toMatchObject({ code: "conflict", message: INVITE_LINK_MESSAGES.expired });

    await testDb.db.update(userInviteTokens).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(userInviteTokens.id, row!.id));
    expect(await refusal(acceptInvite(testDb.db, { token, password: PASSWORD }))).toMatchObject({ message: INVITE_LINK_MESSAGES.expired });
    const html = await renderPage(token);
    expect(html).toContain(asHtml(INVITE_LINK_MESSAGES.expired));
    expect(html).not.toContain("<form");
    expect((await userByEmail("late@example.com")).passwordHash).toBeNull();
    expect((await tokensOf(user.id))[0]!.usedAt).toBeNull();
  });

  it("re-inviting issues a fresh link and revokes the older unused one; each invitation mails once", async () => {
    const first = await invite("twice@example.com", { role: "signer" });
    const second = await invite("twice@example.com", { role: "manager", locationId: world.austin.id });
    expect(second.mailCount).toBe(2);
    const oldToken = linkToken(first.mail.text);
    const newToken = linkToken(second.mail.text);
    expect(newToken).not.toBe(oldToken);

    const user = await userByEmail("twice@example.com");
    const rows = await tokensOf(user.id);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.revokedAt).toBeInstanceOf(Date);
    expect(rows[1]!.revokedAt).toBeNull();

    expect(await refusal(acceptInvite(testDb.db, { token: oldToken, password: PASSWORD }))).toMatchObject({
      code: "conflict",
      message: INVITE_LINK_MESSAGES.superseded,
    });
    expect(await renderPage(oldToken)).toContain(asHtml(INVITE_LINK_MESSAGES.superseded));
    await acceptInvite(testDb.db, { token: newToken, password: PASSWORD });
    expect(await signInWithPassword(testDb.db, { email: "twice@example.com", password: PASSWORD })).not.toBeNull();

    // Delivering again sends nothing more (the email jobs are idempotent per membership).
    await runDueJobs(testDb.db, { workerId: "accept-invite-test" });
    const mails = await testDb.db.select().from(outboxEmails).where(eq(outboxEmails.to, "twice@example.com"));
    expect(mails).toHaveLength(2);
  });

  it("a user who already has a password gets no link (it must not turn into a password reset)", async () => {
    const { mail } = await invite("twice@example.com", { role: "org_admin" });
    expect(mail.text).not.toContain("accept-invite");
    expect(mail.text).toContain(`Sign in at ${getEnv().APP_URL}/sign-in`);
    const { mail: demoMail } = await invite("cosigner@demo.local", { role: "manager" });
    expect(demoMail.text).not.toContain("accept-invite");
    const cosigner = await userByEmail("cosigner@demo.local");
    expect(await tokensOf(cosigner.id)).toHaveLength(0);
  });

  it("an older link stops working once the password is set another way, and for a deactivated user", async () => {
    const { mail } = await invite("elsewhere@example.com");
    const token = linkToken(mail.text);
    await testDb.db.update(users).set({ isActive: false }).where(eq(users.email, "elsewhere@example.com"));
    expect(await refusal(acceptInvite(testDb.db, { token, password: PASSWORD }))).toMatchObject({ message: INVITE_LINK_MESSAGES.invalid });
    await testDb.db.update(users).set({ isActive: true, passwordHash: "scrypt$set$elsewhere" }).where(eq(users.email, "elsewhere@example.com"));
    expect(await refusal(acceptInvite(testDb.db, { token, password: PASSWORD }))).toMatchObject({ message: INVITE_LINK_MESSAGES.used });
    expect((await userByEmail("elsewhere@example.com")).passwordHash).toBe("scrypt$set$elsewhere");
  });

  it("with Clerk configured no link is issued (the identity webhook links the invitation)", async () => {
    setEnvForTests({ SMTP_URL: undefined, CLERK_SECRET_KEY: "sk_test_fake" });
    try {
      const { mail } = await invite("clerk.person@example.com");
      expect(mail.text).not.toContain("accept-invite");
      const user = await userByEmail("clerk.person@example.com");
      expect(user).toMatchObject({ authProvider: "clerk", authSubject: null });
      expect(await tokensOf(user.id)).toHaveLength(0);
    } finally {
      setEnvForTests({ SMTP_URL: undefined, CLERK_SECRET_KEY: undefined, CLERK_JWT_KEY: undefined });
    }
  });
});
