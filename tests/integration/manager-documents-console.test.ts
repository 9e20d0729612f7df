import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { jobs, outreachMessages, users } from "@/db/schema";
import { POST as emailWebhook } from "@/app/api/webhooks/email/route";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { createChattelDocument } from "@/lib/chattel-documents/create-chattel-document";
import { uploadDocumentFile } from "@/lib/chattel-documents/upload-document-file";
import { createComment } from "@/lib/comments/create-comment";
import { listMentionableMembers } from "@/lib/comments/list-mentionable-members";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { setEnvForTests } from "@/lib/env";
import { createOutreachMessage } from "@/lib/outreach/create-outreach-message";
import { listOutreachReplies } from "@/lib/outreach/list-outreach-replies";
import { previewOutreachMessage } from "@/lib/outreach/preview-outreach-message";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { loadDemoWorld, type DemoWorld } from "@/tests/helpers/fixtures";
import { drainJobs } from "@/tests/helpers/payments";
import { readSse } from "@/tests/helpers/sse";
import { expectAppError } from "../helpers/app-error";

// The domain functions the manager's /documents pages add (outreach preview, replies, people to
// mention) and the two session routes beside the pages (a file, the comments stream). next-auth's
// session lookup is replaced by "this user id is signed in"; the rest is the real code on a real database.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId, name: "", email: "" } } : null),
}));

const { GET: getFile } = await import("@/app/(manager)/documents/[id]/files/[fileId]/route");
const { GET: getStream } = await import("@/app/(manager)/documents/[id]/comments/stream/route");
const { POST: postFile } = await import("@/app/(manager)/documents/[id]/files/route");

const DOMAIN = "inbound.demo.test";
const env = (overrides: Record<string, string> = {}) => setEnvForTests({ REALTIME_URL: "memory:", INBOUND_EMAIL_DOMAIN: DOMAIN, ...overrides });

let testDb: TestDb;
let world: DemoWorld;
let manager: Principal;
let documentId: string;

const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));

async function signInAs(email: string | null) {
  if (!email) return void (session.userId = null);
  const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  session.userId = user!.id;
}

const countRows = async (table: typeof jobs | typeof outreachMessages) =>
  (await testDb.db.select({ n: sql<number>`count(*)::int` }).from(table))[0]!.n;

beforeAll(async () => {
  env();
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  manager = await principalFor("manager@demo.local");
  const created = await createChattelDocument(testDb.db, {
    principal: manager,
    locationId: world.austin.id,
    fields: {
      type: "certificate_of_title",
      title: "Title — 2019 Clayton 16x76",
      borrowerName: "Sam Signer",
      borrowerEmail: "sam@example.com",
      dealerContacts: [
        { name: "Dana Dealer", email: "dana@dealer.example" },
        { name: null, email: "desk@dealer.example" },
      ],
      collateralMake: "Clayton",
      collateralModel: "16x76",
      collateralYear: 2019,
    },
  });
  documentId = created.id;
});

afterAll(async () => {
  await testDb.cleanup();
});

beforeEach(async () => {
  env();
  await signInAs(null);
});

describe("previewOutreachMessage", () => {
  it("renders the template with the document's values and the draft, and queues nothing", async () => {
    const [messagesBefore, jobsBefore] = [await countRows(outreachMessages), await countRows(jobs)];
    const preview = await previewOutreachMessage(testDb.db, {
      principal: manager,
      documentId,
      recipientKind: "dealer_contact",
      recipientEmail: "DANA@dealer.example",
      purpose: "request_document",
      message: "Please send the signed title.",
    });
    expect(preview.recipient).toEqual({ name: "Dana Dealer", email: "dana@dealer.example" });
    expect(preview.subject).toBe("Document needed: Title — 2019 Clayton 16x76");
    expect(preview.body).toBe(
      "Hello Dana Dealer,\n\nTo complete the file for Sam Signer (2019 Clayton 16x76), we still need: Title — 2019 Clayton 16x76.\n" +
        "Please send the signed title.\n\nYou can reply to this email with the document attached.\n\nMax Manager\nDemo Lending Co.",
    );
    expect(await countRows(outreachMessages)).toBe(messagesBefore);
    expect(await countRows(jobs)).toBe(jobsBefore);
  });

  it("is what sending stores, overrides included", async () => {
    const draft = {
      recipientKind: "borrower" as const,
      purpose: "custom" as const,
      message: "Your title arrived.",
      subject: "About {{documentTitle}} for {{recipientName}}",
    };
    const preview = await previewOutreachMessage(testDb.db, { principal: manager, documentId, ...draft });
    expect(preview.subject).toBe("About Title — 2019 Clayton 16x76 for Sam Signer");
    const message = await createOutreachMessage(testDb.db, { principal: manager, documentId, ...draft });
    expect({ subject: message.subject, body: message.body, to: message.recipientEmail }).toEqual({
      subject: preview.subject,
      body: preview.body,
      to: "sam@example.com",
    });
  });

  it("refuses what sending refuses: unknown variables, people not on the document, no right, another organization", async () => {
    const base = { principal: manager, documentId, recipientKind: "borrower" as const, purpose: "custom" as const, message: "x" };
    await expectAppError(previewOutreachMessage(testDb.db, { ...base, body: "Hi {{firstName}}" }), "bad_request", /unknown variable \{\{firstName\}\}/);
    await expectAppError(previewOutreachMessage(testDb.db, { ...base, recipientKind: "co_borrower" }), "bad_request", /no co-borrower/);
    await expectAppError(previewOutreachMessage(testDb.db, { ...base, recipientKind: "dealer_contact" }), "bad_request", /several dealer-contact/);
    await expectAppError(previewOutreachMessage(testDb.db, { ...base, principal: await principalFor("admin@demo.local") }), "forbidden");
    await expectAppError(previewOutreachMessage(testDb.db, { ...base, principal: await principalFor("manager@other.local") }), "not_found");
  });
});

describe("listOutreachReplies", () => {
  it("threads inbound replies under the message they answer, and only the document's", async () => {
    const message = await createOutreachMessage(testDb.db, {
      principal: manager,
      documentId,
      recipientKind: "dealer_contact",
      recipientEmail: "dana@dealer.example",
      purpose: "request_document",
    });
    const [{ replyToken }] = (await testDb.db.select({ replyToken: outreachMessages.replyToken }).from(outreachMessages).where(eq(outreachMessages.id, message.id))) as [
      { replyToken: string },
    ];
    const response = await emailWebhook(
      new Request("http://localhost/api/webhooks/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ to: `reply+${replyToken}@${DOMAIN}`, from: "Dana <dana@dealer.example>", subject: "Re: title", text: "Mailed it today." }),
      }),
    );
    expect(response.status).toBe(200);
    await drainJobs(testDb.db);

    const replies = await listOutreachReplies(testDb.db, { principal: manager, documentId, messageIds: [message.id] });
    expect(replies).toEqual([expect.objectContaining({ outreachMessageId: message.id, from: "Dana <dana@dealer.example>", subject: "Re: title", text: "Mailed it today." })]);
    expect(await listOutreachReplies(testDb.db, { principal: manager, documentId, messageIds: [] })).toEqual([]);

    // The same message ids through another document return nothing.
    const other = await createChattelDocument(testDb.db, { principal: manager, locationId: world.austin.id, fields: { type: "other", title: "Other" } });
    expect(await listOutreachReplies(testDb.db, { principal: manager, documentId: other.id, messageIds: [message.id] })).toEqual([]);
    await expectAppError(listOutreachReplies(testDb.db, { principal: await principalFor("manager@other.local"), documentId, messageIds: [message.id] }), "not_found");
    const admin = await listOutreachReplies(testDb.db, { principal: await principalFor("admin@demo.local"), documentId, messageIds: [message.id] });
    expect(admin).toHaveLength(1);
  });
});

describe("listMentionableMembers", () => {
  it("names the organization's accepted managers and admins, not its signers or other organizations' people", async () => {
    const members = await listMentionableMembers(testDb.db, { principal: manager, documentId });
    expect(members.map((m) => m.email)).toEqual(["manager@demo.local", "owner@demo.local"]);
    expect(members.find((m) => m.email === "owner@demo.local")?.name).toBe("Olive Owner");
  });

  it("answers like writing a comment: 503 without real time, 404 for another organization", async () => {
    env({ REALTIME_URL: "" });
    await expectAppError(listMentionableMembers(testDb.db, { principal: manager, documentId }), "unavailable");
    env();
    await expectAppError(listMentionableMembers(testDb.db, { principal: await principalFor("manager@other.local"), documentId }), "not_found");
  });
});

describe("GET /documents/:id/files/:fileId (manager session)", () => {
  it("serves the bytes inline (download=1: attachment) with the sniffed type, 404 outside the scope, 401 signed out", async () => {
    const pdf = await renderAgreementPdf({ title: "Scan", parties: ["Sam"], pages: 1 });
    const file = await uploadDocumentFile(testDb.db, { principal: manager, documentId, fileName: "scan.png", bytes: pdf });
    const get = (query = "") =>
      getFile(new Request(`http://localhost/documents/${documentId}/files/${file.id}${query}`), { params: Promise.resolve({ id: documentId, fileId: file.id }) });

    expect((await get()).status).toBe(401);
    await signInAs("owner@demo.local");
    const inline = await get();
    expect(inline.status).toBe(200);
    expect(inline.headers.get("content-type")).toBe("application/pdf");
    expect(inline.headers.get("content-disposition")).toMatch(/^inline; filename="scan.png"/);
    expect(inline.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await inline.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);
    expect((await get("?download=1")).headers.get("content-disposition")).toMatch(/^attachment;/);
    expect((await get("?download=yes")).status).toBe(400);

    await signInAs("manager@other.local");
    expect((await get()).status).toBe(404);
    await signInAs("signer@demo.local");
    expect((await get()).status).toBe(403);
  });
});

describe("POST /documents/:id/files (manager session, the upload form's progress path)", () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}, id = documentId) =>
    postFile(new Request(`http://localhost/documents/${id}/files`, { method: "POST", body, headers }), { params: Promise.resolve({ id }) });
  const form = (bytes: Uint8Array | string, name: string) => {
    const data = new FormData();
    data.set("file", new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], name));
    return data;
  };

  it("stores a PNG as uploadDocumentFile does and answers its metadata", async () => {
    await signInAs("manager@demo.local");
    const png = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
    const response = await post(form(png, "../photo.png"));
    expect(response.status).toBe(201);
    const body = (await response.json()) as { documentId: string; fileName: string; contentType: string; sizeBytes: number };
    expect(body).toMatchObject({ documentId, fileName: "photo.png", contentType: "image/png", sizeBytes: png.byteLength });
  });

  it("refuses with the API's messages: other types 400, no file 400, signed out 401, another organization 404, over the cap 413", async () => {
    expect((await post(form("hello", "a.pdf"))).status).toBe(401);
    await signInAs("manager@demo.local");
    const text = await post(form("hello", "a.pdf"));
    expect(text.status).toBe(400);
    expect(await text.json()).toEqual({ error: "Only PDF, PNG and JPEG files are accepted." });
    const empty = await post(new FormData());
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ error: "Expected a multipart/form-data body with a file part named file." });
    expect((await post(form("x", "a.png"), { "content-length": String(11 * 1024 * 1024) })).status).toBe(413);
    await signInAs("manager@other.local");
    expect((await post(form("hello", "a.pdf"))).status).toBe(404);
    await signInAs("admin@demo.local");
    expect((await post(form("hello", "a.pdf"))).status).toBe(403);
  });
});

describe("GET /documents/:id/comments/stream (manager session)", () => {
  const open = (id = documentId) => getStream(new Request(`http://localhost/documents/${id}/comments/stream`), { params: Promise.resolve({ id }) });

  it("sends ready, then each new comment as it is created", async () => {
    await signInAs("owner@demo.local");
    const response = await open();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = readSse(response);
    try {
      expect(await events.next()).toEqual({ event: "ready", data: { documentId } });
      await createComment(testDb.db, { principal: manager, documentId, body: "Title received — @owner@demo.local please review." });
      const created = await events.next((e) => e.event === "created");
      expect(created.data).toMatchObject({ documentId, authorName: "Max Manager", body: "Title received — @owner@demo.local please review." });
      expect((created.data as { mentionedUserIds: string[] }).mentionedUserIds).toEqual([session.userId]);
    } finally {
      await events.close();
    }
  });

  it("resumes with the Last-Event-ID the browser sends when it reconnects: the comment missed meanwhile comes first, once", async () => {
    await signInAs("owner@demo.local");
    const openAfter = (lastEventId: string) =>
      getStream(new Request(`http://localhost/documents/${documentId}/comments/stream`, { headers: { "last-event-id": lastEventId } }), {
        params: Promise.resolve({ id: documentId }),
      });
    const first = readSse(await open());
    let lastId: string;
    try {
      await first.next((e) => e.event === "ready");
      await createComment(testDb.db, { principal: manager, documentId, body: "Seen live" });
      const seen = await first.next((e) => e.event === "created");
      expect(seen.id).toMatch(/^\d+$/);
      lastId = seen.id!;
    } finally {
      await first.close();
    }
    const missed = await createComment(testDb.db, { principal: manager, documentId, body: "Posted while the tab was asleep" });
    const resumed = readSse(await openAfter(lastId));
    try {
      await resumed.next((e) => e.event === "ready");
      const replayed = await resumed.next((e) => e.event !== "heartbeat");
      expect([replayed.event, (replayed.data as { id: string }).id]).toEqual(["created", missed.id]);
      expect(Number(replayed.id)).toBeGreaterThan(Number(lastId));
      await expect(resumed.next((e) => e.event === "created" && (e.data as { body: string }).body === "Seen live", 500)).rejects.toThrow();
    } finally {
      await resumed.close();
    }
    const bad = await openAfter("1 OR 1=1");
    expect(bad.status).toBe(400);
  });

  it("ends after REALTIME_STREAM_MAX_MS, so the browser reconnects and the session and scope are checked again", async () => {
    env({ REALTIME_STREAM_MAX_MS: "300", REALTIME_HEARTBEAT_MS: "100" });
    await signInAs("owner@demo.local");
    const events = readSse(await open());
    try {
      expect(await events.next()).toEqual({ event: "ready", data: { documentId } });
      await expect(events.next((e) => e.event === "never", 3000)).rejects.toThrow("event stream ended");
    } finally {
      await events.close();
      env();
    }
  });

  it("answers JSON errors instead of a stream: 401 signed out, 503 without real time, 404 outside the scope, 400 for a bad id", async () => {
    expect((await open()).status).toBe(401);
    await signInAs("manager@other.local");
    const outside = await open();
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({ error: `Document ${documentId} not found.` });
    await signInAs("manager@demo.local");
    env({ REALTIME_URL: "" });
    const off = await open();
    expect(off.status).toBe(503);
    expect(await off.json()).toEqual({ error: "Comments need the real-time service, which is not configured (REALTIME_URL)." });
    env();
    expect((await open("not-a-uuid")).status).toBe(400);
  });
});
