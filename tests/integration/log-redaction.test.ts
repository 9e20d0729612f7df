import { sql, eq } from "drizzle-orm";
import { getApiApp } from "@/lib/api/app";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { users } from "@/db/schema";
import { POST as emailWebhook } from "@/app/api/webhooks/email/route";
import { hashPassword } from "@/lib/auth/passwords";
import { signInWithPassword } from "@/lib/sign-in/sign-in-with-password";
import { setEnvForTests } from "@/lib/env";
import { toErrorResponse } from "@/lib/errors";
import { callApi, tokenFor } from "@/tests/helpers/api";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { createUser, loadDemoWorld } from "@/tests/helpers/fixtures";
import { drainJobs } from "@/tests/helpers/payments";
import { getDemoPackage } from "@/tests/helpers/signing-fixtures";

// Known secrets go through flows whose database writes fail (a trigger raises), and the captured log
// lines must contain none of them: Drizzle's error message carries every query parameter.
const DOMAIN = "inbound.example.test";
const SIGNATURE_TEXT = "Signature-Text-5b1e0c77";
const REPLY_TOKEN = "9f1c2e3d4b5a69788796a5b4c3d2e1f0";
const PASSWORD = "Password-9e8d7c6b5a";
const IDEMPOTENCY_KEY = "idem-key-3c4d5e6f7a8b";
let bearer: string;
let testDb: TestDb;
const lines: string[] = [];

beforeAll(async () => {
  testDb = await createTestDb();
  await loadDemoWorld(testDb.db);
  setEnvForTests({ LOG_LEVEL: "debug", INBOUND_EMAIL_DOMAIN: DOMAIN, EMAIL_WEBHOOK_TOKEN: "" });
  bearer = await tokenFor("signer@demo.local", 3600);
  for (const method of ["log", "error", "warn", "info", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args.map(String).join(" ")));
  }
  // Every write these flows make fails inside PostgreSQL, after the parameters were sent.
  await testDb.db.execute(sql`create function fail_write() returns trigger language plpgsql as $$ begin raise exception 'write refused by test trigger'; end $$`);
  for (const table of ["e_signatures", "inbound_emails"]) {
    await testDb.db.execute(sql.raw(`create trigger fail_write before insert on ${table} for each row execute function fail_write()`));
  }
  await testDb.db.execute(sql`create trigger fail_write before update of last_sign_in_at on users for each row execute function fail_write()`);
});

afterAll(async () => {
  vi.restoreAllMocks();
  setEnvForTests({});
  await testDb.cleanup();
});

describe("log lines carry no SQL parameters, tokens, reply tokens, signature text or passwords", () => {
  it("through a failed e-signature, a failed email job, a failed sign-in and refused tokens", async () => {
    const demo = await getDemoPackage(testDb.db);
    // A deliberate internal failure (the test trigger refuses the write): a 500, which no operation
    // documents, so the handler is called as it is, without the tests' OpenAPI check of callApi.
    const signed = await getApiApp().fetch(
      new Request(`http://core-api.test/v1/signing/signer/signings/${demo.id}/documents/${demo.document.id}/esignatures`, {
        method: "POST",
        headers: { authorization: `Bearer ${bearer}`, "idempotency-key": IDEMPOTENCY_KEY, "content-type": "application/json" },
        body: JSON.stringify({ kind: "typed", text: SIGNATURE_TEXT, font: "caveat", consent: true }),
      }),
    );
    expect(signed.status).toBe(500);

    const mail = { to: `reply+${REPLY_TOKEN}@${DOMAIN}`, from: "borrower@example.com", subject: "Re: documents", text: "attached" };
    const received = await emailWebhook(
      new Request("http://localhost:3000/api/webhooks/email", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(mail) }),
    );
    expect(received.status).toBe(200);
    await drainJobs(testDb.db);

    const user = await createUser(testDb.db, "password-user@example.com");
    await testDb.db.update(users).set({ passwordHash: await hashPassword(PASSWORD) }).where(eq(users.id, user.id));
    const signIn = await signInWithPassword(testDb.db, { email: user.email, password: PASSWORD }).catch((error: unknown) => toErrorResponse(error));
    expect(signIn).toMatchObject({ status: 500 });

    expect((await callApi("/v1/signing/session", { token: `${bearer}x` })).status).toBe(401);

    const logged = lines.join("\n");
    for (const secret of [SIGNATURE_TEXT, REPLY_TOKEN, PASSWORD, IDEMPOTENCY_KEY, bearer, bearer.split(".")[2]!]) {
      expect(logged, `a log line contains ${secret.slice(0, 12)}…`).not.toContain(secret);
    }
    expect(logged).not.toMatch(/params:/);
    // The failures were logged, by code, without their parameters.
    expect(logged).toContain("P0001");
    expect(logged).toContain("job failed");
  });
});
