import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { jobs, outboxEmails, outreachMessages } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ErrorBody } from "../helpers/schemas";
import { startSmtpServer } from "../fakes/smtp/start-smtp-server";

const Message = z.strictObject({
  id: z.uuid(),
  organizationId: z.number().int(),
  documentId: z.uuid().nullable(),
  recipientKind: z.enum(["borrower", "co_borrower", "dealer_contact"]),
  recipientName: z.string().nullable(),
  recipientEmail: z.string(),
  purpose: z.enum(["request_document", "remind_unsigned", "custom"]),
  subject: z.string(),
  body: z.string(),
  status: z.enum(["queued", "sent", "failed", "replied"]),
  sentAt: z.iso.datetime().nullable(),
  repliedAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
  createdByUserId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const MessageList = z.strictObject({ data: z.array(Message), nextCursor: z.string().nullable() });
const Template = z.strictObject({
  organizationId: z.number().int(),
  purpose: z.enum(["request_document", "remind_unsigned", "custom"]),
  subject: z.string(),
  body: z.string(),
  source: z.enum(["built_in", "organization"]),
  updatedAt: z.iso.datetime().nullable(),
});
const TemplateList = z.strictObject({ data: z.array(Template) });

/** setEnvForTests replaces the whole environment, so every switch restates the mail settings. */
const mailEnv = (smtpUrl: string) =>
  setEnvForTests({ SMTP_URL: smtpUrl, EMAIL_FROM: "Demo Lending <no-reply@demo.test>", INBOUND_EMAIL_DOMAIN: "inbound.demo.test" });

let testDb: TestDb;
let world: DemoWorld;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let docId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  smtp = await startSmtpServer({ reject: ["bounce@example.com"] });
  mailEnv(smtp.url);
  // The demo seed queues its sample packages' three invitations (two for Demo Lending's package, one
  // for the link-only sample): deliver them first, so each test counts only the jobs it caused.
  expect(await runJobs()).toMatchObject({ succeeded: 3 });
  const res = await callApi("/v1/documents", {
    method: "POST",
    token: await tokenFor("manager@demo.local"),
    json: {
      type: "certificate_of_title",
      title: "Certificate of title",
      locationId: world.austin.id,
      borrowerName: "Sam Signer",
      borrowerEmail: "sam@example.com",
      coBorrowers: [
        { name: "Casey Cosigner", email: "casey@example.com" },
        { name: "Bounce Person", email: "bounce@example.com" },
      ],
      dealerContacts: [{ name: "Dana Dealer", email: "dana@dealer.example" }],
      collateralMake: "Clayton",
      collateralModel: "16x76",
      collateralYear: 2019,
    },
  });
  docId = (res.body as { id: string }).id;
});
afterAll(async () => {
  setEnvForTests({ SMTP_URL: undefined, EMAIL_FROM: undefined, INBOUND_EMAIL_DOMAIN: undefined });
  await smtp.stop();
  await testDb.cleanup();
});

async function send(email: string, body: unknown, documentId = docId) {
  return callApi(`/v1/documents/${documentId}/outreach`, { method: "POST", token: await tokenFor(email), json: body });
}

async function countMessages(): Promise<number> {
  const [row] = await testDb.db.select({ n: sql<number>`count(*)::int` }).from(outreachMessages);
  return row!.n;
}

const runJobs = () => runDueJobs(testDb.db, { workerId: "outreach-test" });

describe("outreach messages", () => {
  it("queues a templated message and the job delivers it over SMTP with the reply address: queued → sent", async () => {
    const res = await send("manager@demo.local", { recipientKind: "borrower", purpose: "request_document", message: "Please send the signed title." });
    expect(res.status, res.text).toBe(201);
    const queued = Message.parse(res.body);
    expect(queued).toMatchObject({ status: "queued", recipientEmail: "sam@example.com", recipientName: "Sam Signer", subject: "Document needed: Certificate of title" });
    expect(queued.body).toContain("Hello Sam Signer");
    expect(queued.body).toContain("(2019 Clayton 16x76)");
    expect(queued.body).toContain("Please send the signed title.");
    expect(queued.body).toContain("Max Manager\nDemo Lending Co.");
    const [job] = await testDb.db.select().from(jobs).where(eq(jobs.idempotencyKey, queued.id));
    expect(job).toMatchObject({ name: "send-outreach-message", status: "queued" });

    const before = smtp.received.length;
    expect(await runJobs()).toMatchObject({ succeeded: 1 });
    const mail = smtp.received[before]!;
    const [stored] = await testDb.db.select().from(outreachMessages).where(eq(outreachMessages.id, queued.id));
    expect(mail.envelope.to).toEqual(["sam@example.com"]);
    expect(mail.headers["reply-to"]).toBe(`reply+${stored!.replyToken}@inbound.demo.test`);
    expect(mail.headers.from).toBe("Demo Lending <no-reply@demo.test>");
    expect(mail.headers.subject).toBe("Document needed: Certificate of title");
    expect(mail.text).toBe(queued.body);
    expect(stored).toMatchObject({ status: "sent", lastError: null });
    expect(stored!.sentAt).toBeInstanceOf(Date);

    // The job is idempotent: running it again for a sent message sends nothing.
    expect(await runJobs()).toMatchObject({ claimed: 0 });
    expect(smtp.received.length).toBe(before + 1);
  });

  it("the history lists messages newest first, without the reply token", async () => {
    await send("manager@demo.local", { recipientKind: "dealer_contact", purpose: "custom", message: "Hi Dana" });
    const list = MessageList.parse((await callApi(`/v1/documents/${docId}/outreach`, { token: await tokenFor("owner@demo.local") })).body);
    expect(list.data.length).toBeGreaterThanOrEqual(2);
    expect(list.data[0]).toMatchObject({ recipientKind: "dealer_contact", recipientEmail: "dana@dealer.example", subject: "Certificate of title" });
    expect(JSON.stringify(list)).not.toContain("replyToken");
    await runJobs();
  });

  it("a permanently refused recipient ends failed with the SMTP error", async () => {
    const queued = Message.parse((await send("manager@demo.local", { recipientKind: "co_borrower", recipientEmail: "BOUNCE@example.com", purpose: "remind_unsigned" })).body);
    expect(queued.subject).toBe("Reminder: Certificate of title is waiting for your signature");
    expect(await runJobs()).toMatchObject({ failed: 1 });
    const [stored] = await testDb.db.select().from(outreachMessages).where(eq(outreachMessages.id, queued.id));
    expect(stored!.status).toBe("failed");
    expect(stored!.lastError).toMatch(/550|mailbox/i);
  });

  it("a transient failure stays queued with the error and is retried", async () => {
    mailEnv("smtp://127.0.0.1:1");
    try {
      const queued = Message.parse((await send("manager@demo.local", { recipientKind: "co_borrower", recipientEmail: "casey@example.com", purpose: "custom", message: "x" })).body);
      expect(await runJobs()).toMatchObject({ retried: 1 });
      const [stored] = await testDb.db.select().from(outreachMessages).where(eq(outreachMessages.id, queued.id));
      expect(stored).toMatchObject({ status: "queued" });
      expect(stored!.lastError).toBeTruthy();
      await testDb.db.update(jobs).set({ runAt: new Date(0) }).where(eq(jobs.idempotencyKey, queued.id));
    } finally {
      mailEnv(smtp.url);
    }
    expect(await runJobs()).toMatchObject({ succeeded: 1 });
  });

  it("without SMTP_URL the mail lands in the dev outbox", async () => {
    mailEnv("");
    try {
      const queued = Message.parse((await send("manager@demo.local", { recipientKind: "borrower", purpose: "custom", subject: "Hi {{borrowerName}}", body: "Serial {{collateralSerial}}." })).body);
      expect(queued).toMatchObject({ subject: "Hi Sam Signer", body: "Serial ." });
      await runJobs();
      const outbox = await testDb.db.select().from(outboxEmails).where(eq(outboxEmails.to, "sam@example.com"));
      expect(outbox.at(-1)).toMatchObject({ subject: "Hi Sam Signer", from: "Demo Lending <no-reply@demo.test>" });
      expect(outbox.at(-1)!.replyTo).toMatch(/^reply\+[0-9a-f]{32}@inbound\.demo\.test$/);
    } finally {
      mailEnv(smtp.url);
    }
  });

  describe("refusals: nothing queued", () => {
    const cases: [string, string, unknown, number][] = [
      ["signer", "signer@demo.local", { recipientKind: "borrower", purpose: "custom", message: "x" }, 403],
      ["admin", "admin@demo.local", { recipientKind: "borrower", purpose: "custom", message: "x" }, 403],
      ["other organization", "manager@other.local", { recipientKind: "borrower", purpose: "custom", message: "x" }, 404],
      ["custom without message", "manager@demo.local", { recipientKind: "borrower", purpose: "custom" }, 400],
      ["several co-borrowers, none named", "manager@demo.local", { recipientKind: "co_borrower", purpose: "remind_unsigned" }, 400],
      ["address not on the document", "manager@demo.local", { recipientKind: "borrower", recipientEmail: "evil@example.com", purpose: "remind_unsigned" }, 400],
      ["unknown variable", "manager@demo.local", { recipientKind: "borrower", purpose: "custom", body: "{{password}}" }, 400],
      ["unknown purpose", "manager@demo.local", { recipientKind: "borrower", purpose: "spam" }, 400],
      ["unknown field", "manager@demo.local", { recipientKind: "borrower", purpose: "custom", message: "x", to: "a@b.c" }, 400],
    ];
    it.each(cases)("%s", async (_, email, body, status) => {
      const before = await countMessages();
      const res = await send(email, body);
      expect(res.status).toBe(status);
      ErrorBody.parse(res.body);
      expect(await countMessages()).toBe(before);
    });

    it("history: signer 403, other organization 404, admins read", async () => {
      expect((await callApi(`/v1/documents/${docId}/outreach`, { token: await tokenFor("signer@demo.local") })).status).toBe(403);
      MessageList.parse((await callApi(`/v1/documents/${docId}/outreach`, { token: await tokenFor("admin@demo.local") })).body);
      expect((await callApi(`/v1/documents/${docId}/outreach`, { token: await tokenFor("manager@other.local") })).status).toBe(404);
    });

    it("a document without a borrower email: 400", async () => {
      const res = await callApi("/v1/documents", { method: "POST", token: await tokenFor("manager@demo.local"), json: { type: "other", title: "No borrower", locationId: world.austin.id } });
      const bare = (res.body as { id: string }).id;
      expect((await send("manager@demo.local", { recipientKind: "borrower", purpose: "custom", message: "x" }, bare)).status).toBe(400);
    });
  });

  it("fuzz: malformed bodies never 5xx", async () => {
    const token = await tokenFor("manager@demo.local");
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          recipientKind: fc.constantFrom("borrower", "co_borrower", "dealer_contact", "x"),
          purpose: fc.constantFrom("request_document", "remind_unsigned", "custom", ""),
          message: fc.option(fc.string(), { nil: undefined }),
          body: fc.option(fc.string(), { nil: undefined }),
          subject: fc.option(fc.string(), { nil: undefined }),
        }),
        async (body) => {
          const res = await callApi(`/v1/documents/${docId}/outreach`, { method: "POST", token, json: body });
          expect(res.status).toBeLessThan(500);
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe("outreach templates", () => {
  const path = "/v1/documents/outreach/templates";

  it("lists built-ins; an organization's own template replaces one and is used; delete restores it", async () => {
    const owner = await tokenFor("owner@demo.local");
    const initial = TemplateList.parse((await callApi(path, { token: owner })).body).data;
    expect(initial.map((t) => [t.purpose, t.source])).toEqual([
      ["request_document", "built_in"],
      ["remind_unsigned", "built_in"],
      ["custom", "built_in"],
    ]);

    const saved = await callApi(`${path}/remind_unsigned`, {
      method: "PUT",
      token: owner,
      json: { subject: "Still waiting: {{ documentTitle }}", body: "Dear {{recipientName}}, please sign. — {{organizationName}}" },
    });
    expect(saved.status).toBe(200);
    expect(Template.parse(saved.body)).toMatchObject({ source: "organization", purpose: "remind_unsigned", organizationId: world.austin.organizationId });

    const message = Message.parse((await send("manager@demo.local", { recipientKind: "dealer_contact", purpose: "remind_unsigned" })).body);
    expect(message).toMatchObject({ subject: "Still waiting: Certificate of title", body: "Dear Dana Dealer, please sign. — Demo Lending Co." });

    // The other organization still has the built-in.
    const other = TemplateList.parse((await callApi(path, { token: await tokenFor("manager@other.local") })).body).data;
    expect(other.find((t) => t.purpose === "remind_unsigned")!.source).toBe("built_in");

    expect((await callApi(`${path}/remind_unsigned`, { method: "DELETE", token: owner })).status).toBe(204);
    expect((await callApi(`${path}/remind_unsigned`, { method: "DELETE", token: owner })).status).toBe(404);
    const after = TemplateList.parse((await callApi(path, { token: owner })).body).data;
    expect(after.find((t) => t.purpose === "remind_unsigned")!.source).toBe("built_in");
    await runJobs();
  });

  it("refusals", async () => {
    const owner = await tokenFor("owner@demo.local");
    const put = (token: string, body: unknown, query = "") => callApi(`${path}/custom${query}`, { method: "PUT", token, json: body });
    expect((await put(owner, { subject: "x", body: "{{secret}}" })).status).toBe(400);
    expect((await put(owner, { subject: "", body: "x" })).status).toBe(400);
    expect((await callApi(`${path}/spam`, { method: "PUT", token: owner, json: { subject: "x", body: "y" } })).status).toBe(400);
    expect((await put(owner, { subject: "x", body: "y" }, `?organizationId=${world.tulsa.organizationId}`)).status).toBe(404);
    expect((await put(await tokenFor("signer@demo.local"), { subject: "x", body: "y" })).status).toBe(403);
    expect((await put(await tokenFor("admin@demo.local"), { subject: "x", body: "y" })).status).toBe(403);
    expect((await callApi(path, { token: await tokenFor("signer@demo.local") })).status).toBe(403);
    // Admins read any organization's templates, naming it (they belong to none).
    expect((await callApi(path, { token: await tokenFor("admin@demo.local") })).status).toBe(404);
    TemplateList.parse((await callApi(`${path}?organizationId=${world.tulsa.organizationId}`, { token: await tokenFor("admin@demo.local") })).body);
    expect((await callApi(`${path}?organizationId=${world.austin.organizationId}`, { token: await tokenFor("manager@other.local") })).status).toBe(404);
  });
});
