import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { setEnvForTests } from "@/lib/env";
import { sendEmail } from "@/lib/email/send-email";
import DevOutboxPage from "@/app/dev/outbox/page";
import { createTestDb, type TestDb } from "../helpers/db";

let testDb: TestDb;

beforeAll(async () => {
  setEnvForTests({ SMTP_URL: undefined });
  testDb = await createTestDb();
});
afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

describe("/dev/outbox", () => {
  it("shows the kept mail, newest first, with Reply-To", async () => {
    await sendEmail(testDb.db, { to: "first@example.com", subject: "First <mail>", text: "Hello" });
    await sendEmail(testDb.db, { to: "second@example.com", subject: "Second", text: "Body\nline two", replyTo: "reply+abc@inbound.localhost" });
    const html = renderToStaticMarkup(await DevOutboxPage());
    expect(html).toContain("Dev outbox");
    expect(html.indexOf("Second")).toBeLessThan(html.indexOf("First &lt;mail&gt;"));
    expect(html).toContain("reply+abc@inbound.localhost");
    expect(html).toContain("Body\nline two");
  });

  it("is not found in production", async () => {
    setEnvForTests({ NODE_ENV: "production" });
    try {
      await expect(DevOutboxPage()).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
    } finally {
      setEnvForTests({});
    }
  });
});
