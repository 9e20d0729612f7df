import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inboundEmails, inboundEvents, outreachMessages } from "@/db/schema";
import { POST } from "@/app/api/webhooks/email/route";
import { setEnvForTests } from "@/lib/env";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { createOrganization, drainJobs } from "@/tests/helpers/payments";

const DOMAIN = "inbound.example.test";
const TOKEN = "email-hook-token-0123456789";
let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb();
});

beforeEach(() => {
  setEnvForTests({ INBOUND_EMAIL_DOMAIN: DOMAIN, EMAIL_WEBHOOK_TOKEN: TOKEN });
});

afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

function url(token: string | null = TOKEN): string {
  return `http://localhost:3000/api/webhooks/email${token === null ? "" : `?token=${encodeURIComponent(token)}`}`;
}

function jsonRequest(body: unknown, token: string | null = TOKEN): Request {
  return new Request(url(token), { method: "POST", headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

function formRequest(fields: Record<string, string>, token: string | null = TOKEN, file?: Blob): Request {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set("attachment1", file, "big.bin");
  return new Request(url(token), { method: "POST", body: form });
}

async function emailsFor(inboundEventSubject: string) {
  return testDb.db.select().from(inboundEmails).where(eq(inboundEmails.subject, inboundEventSubject));
}

describe("POST /api/webhooks/email – checks", () => {
  it("answers 401 for a missing or wrong token when one is configured", async () => {
    const mail = { to: `x@${DOMAIN}`, subject: "s", text: "t" };
    for (const [token, error] of [
      [null, "Missing webhook token."],
      ["wrong", "Invalid webhook token."],
      [`${TOKEN}x`, "Invalid webhook token."],
      ["", "Invalid webhook token."],
    ] as const) {
      const response = await POST(jsonRequest(mail, token));
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 401, body: { error } });
    }
  });

  it("needs no token when none is configured", async () => {
    setEnvForTests({ INBOUND_EMAIL_DOMAIN: DOMAIN, EMAIL_WEBHOOK_TOKEN: "" });
    expect((await POST(jsonRequest({ to: `x@${DOMAIN}`, subject: "no token", text: "t" }, null))).status).toBe(200);
  });

  it("answers 400 for malformed bodies and 413 over 5 MiB", async () => {
    for (const request of [
      jsonRequest("{not json"),
      jsonRequest([1, 2]),
      jsonRequest({ subject: "no recipient" }),
      jsonRequest({ to: "not an address" }),
      new Request(url(), { method: "POST", headers: { "content-type": "text/plain" }, body: "hello" }),
      new Request(url(), { method: "POST", headers: { "content-type": "multipart/form-data; boundary=x" }, body: "garbage" }),
    ]) {
      const response = await POST(request);
      expect(response.status).toBe(400);
      expect(await response.json()).toHaveProperty("error");
    }
    const big = formRequest({ to: `x@${DOMAIN}`, subject: "big" }, TOKEN, new Blob([new Uint8Array(5 * 1024 * 1024 + 1)]));
    expect((await POST(big)).status).toBe(413);
  });
});

describe("routing inbound mail", () => {
  it("threads a reply to its outreach message (multipart), marks it replied, and files org and unrouted mail", async () => {
    const db = testDb.db;
    const slug = `acme-${Date.now()}`;
    const org = await createOrganization(db, slug);
    const [message] = await db
      .insert(outreachMessages)
      .values({
        organizationId: org,
        recipientKind: "borrower",
        recipientEmail: "borrower@example.com",
        purpose: "request_document",
        subject: "Please send your title",
        body: "…",
        status: "sent",
        replyToken: "tok123abc",
      })
      .returning();

    const reply = await POST(
      formRequest({
        to: `"Acme Closings" <reply+tok123abc@${DOMAIN}>`,
        from: "Borrower <borrower@example.com>",
        subject: "Re: Please send your title",
        text: "Attached, thanks.",
        "Message-Id": "<m1@example.com>",
      }),
    );
    expect(reply.status).toBe(200);
    expect(await reply.json()).toEqual({ received: true });
    const inbox = await POST(jsonRequest({ to: `${slug}@${DOMAIN}`, from: "dealer@example.com", subject: "Question for Acme", text: "Hi" }));
    expect(inbox.status).toBe(200);
    const lost = await POST(jsonRequest({ to: `someone@${DOMAIN}, other@elsewhere.test`, subject: "Nobody", text: "?" }));
    expect(lost.status).toBe(200);

    // Asynchronous: stored and enqueued, filed by the job.
    expect(await emailsFor("Re: Please send your title")).toHaveLength(0);
    await drainJobs(db);

    expect(await emailsFor("Re: Please send your title")).toEqual([
      expect.objectContaining({ routing: "reply", organizationId: org, outreachMessageId: message!.id, from: "Borrower <borrower@example.com>", text: "Attached, thanks." }),
    ]);
    const [updated] = await db.select().from(outreachMessages).where(eq(outreachMessages.id, message!.id));
    expect(updated!.status).toBe("replied");
    expect(updated!.repliedAt).toBeInstanceOf(Date);
    expect(await emailsFor("Question for Acme")).toEqual([expect.objectContaining({ routing: "inbox", organizationId: org, outreachMessageId: null })]);
    expect(await emailsFor("Nobody")).toEqual([expect.objectContaining({ routing: "unrouted", organizationId: null })]);
    const [event] = await db.select().from(inboundEvents).where(sql`${inboundEvents.payload}->>'messageId' = '<m1@example.com>'`);
    expect(event).toMatchObject({ source: "email", status: "processed", organizationId: org });
  });

  it("stores a redelivered message once", async () => {
    const mail = { to: `x@${DOMAIN}`, subject: "twice", text: "same", message_id: "<dup@example.com>" };
    expect(await (await POST(jsonRequest(mail))).json()).toEqual({ received: true });
    expect(await (await POST(jsonRequest(mail))).json()).toEqual({ received: true, duplicate: true });
    await drainJobs(testDb.db);
    expect(await emailsFor("twice")).toHaveLength(1);
  });

  it("files the same Message-ID for each recipient organization: another tenant's mail never makes it a duplicate", async () => {
    const db = testDb.db;
    const [firstSlug, secondSlug] = [`first-${Date.now()}`, `second-${Date.now()}`];
    const first = await createOrganization(db, firstSlug);
    const second = await createOrganization(db, secondSlug);

    const forged = { to: `${firstSlug}@${DOMAIN}`, subject: "Forged first", text: "x", message_id: "<shared@example.com>" };
    const real = { to: `${secondSlug}@${DOMAIN}`, subject: "Real second", text: "y", message_id: "<shared@example.com>" };
    expect(await (await POST(jsonRequest(forged))).json()).toEqual({ received: true });
    expect(await (await POST(jsonRequest(real))).json()).toEqual({ received: true });
    // The same message again for the first organization, to a differently written list: filed once there.
    const again = { to: `Front desk <${firstSlug}@${DOMAIN}>, ops@elsewhere.test`, subject: "Forged first", text: "x", message_id: "<shared@example.com>" };
    expect(await (await POST(jsonRequest(again))).json()).toEqual({ received: true });
    await drainJobs(db);

    expect(await emailsFor("Forged first")).toEqual([expect.objectContaining({ routing: "inbox", organizationId: first, messageId: "<shared@example.com>" })]);
    expect(await emailsFor("Real second")).toEqual([expect.objectContaining({ routing: "inbox", organizationId: second, messageId: "<shared@example.com>" })]);
  });

  it("routes by the address, never by a display name that looks like one", async () => {
    const db = testDb.db;
    const [targetSlug, victimSlug] = [`target-${Date.now()}`, `victim-${Date.now()}`];
    const target = await createOrganization(db, targetSlug);
    await createOrganization(db, victimSlug);

    const spoofs = [
      { to: `"${victimSlug}@${DOMAIN}" <${targetSlug}@${DOMAIN}>`, subject: "Quoted name" },
      { to: `${victimSlug}@${DOMAIN} <${targetSlug}@${DOMAIN}>`, subject: "Bare name" },
      { to: `${targetSlug}@${DOMAIN} (${victimSlug}@${DOMAIN})`, subject: "Comment" },
    ];
    for (const spoof of spoofs) expect((await POST(jsonRequest({ ...spoof, text: "t" }))).status).toBe(200);
    const nameOnly = await POST(jsonRequest({ to: `"${victimSlug}@${DOMAIN}" <nobody@elsewhere.test>`, subject: "Name only", text: "t" }));
    expect(nameOnly.status).toBe(200);
    await drainJobs(db);

    for (const spoof of spoofs) {
      expect(await emailsFor(spoof.subject)).toEqual([expect.objectContaining({ routing: "inbox", organizationId: target })]);
    }
    expect(await emailsFor("Name only")).toEqual([expect.objectContaining({ routing: "unrouted", organizationId: null })]);
  });
});
