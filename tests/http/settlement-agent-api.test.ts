import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { lastDeliveredMailTo } from "../helpers/mail";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, BASE, loadManagerWorld, SigningJson } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";

const MANAGER = "manager@demo.local";
const iso = z.iso.datetime();
const LinkResult = z.strictObject({
  link: z
    .strictObject({
      id: z.uuid(),
      agentName: z.string(),
      agentEmail: z.string(),
      state: z.enum(["sent", "opened", "expired", "revoked"]),
      issuedAt: iso,
      expiresAt: iso,
      openedAt: iso.nullable(),
      revokedAt: iso.nullable(),
    })
    .nullable(),
});

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
}, 120_000);
afterAll(() => testDb.cleanup());

const base64 = async (title: string, pages = 1) => Buffer.from(await renderAgreementPdf({ title, parties: ["Borrower"], pages })).toString("base64");
const url = (id: string) => `${BASE}/signings/${id}/settlement-agent-link`;

async function createHybrid(send = true) {
  const res = await as(MANAGER, `${BASE}/signings`, {
    json: {
      locationId: world.austin.id,
      title: "Agent over /v1",
      signers: [{ name: "Bo Rower", email: "borrower-agent-api@demo.local" }],
      documents: [{ name: "Note.pdf", contentBase64: await base64("Note", 2), executionMode: "wet_sign" }],
      appointment: { closingAt: "2030-12-01T15:00:00Z", closingPlace: "Title office", settlementAgent: "Sam Agent" },
    },
  });
  expect(res.status).toBe(201);
  const id = SigningJson.parse(res.body).id;
  if (send) expect((await as(MANAGER, `${BASE}/signings/${id}/send`, { method: "POST" })).status).toBe(200);
  return id;
}

describe("settlement agent link over /v1", () => {
  it("reads none, issues one (emailed, never returned), reissues, revokes; bad input is 400 and a draft 409", async () => {
    const id = await createHybrid();
    expect(LinkResult.parse((await as(MANAGER, url(id))).body)).toEqual({ link: null });

    const bad = await as(MANAGER, url(id), { method: "POST", json: { agentName: "Sam Agent", agentEmail: "nope" } });
    expect(bad.status).toBe(400);
    ErrorBody.parse(bad.body);
    expect((await as(MANAGER, url(id), { method: "POST", json: { agentName: "Sam Agent", agentEmail: "sam@title.example", extra: 1 } })).status).toBe(400);

    const issued = await as(MANAGER, url(id), { method: "POST", json: { agentName: "Sam Agent", agentEmail: "sam@title.example" } });
    expect(issued.status).toBe(201);
    const link = LinkResult.parse(issued.body).link!;
    expect(link).toMatchObject({ agentName: "Sam Agent", agentEmail: "sam@title.example", state: "sent", expiresAt: "2030-12-08T15:00:00.000Z", openedAt: null });
    const mail = await lastDeliveredMailTo(testDb.db, "sam@title.example");
    const token = /\/agent\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
    expect(token).toBeDefined();
    expect(JSON.stringify(issued.body)).not.toContain(token!);

    const again = LinkResult.parse((await as(MANAGER, url(id), { method: "POST", json: { agentName: "Sam Agent", agentEmail: "sam2@title.example" } })).body).link!;
    expect(again.id).not.toBe(link.id);
    expect(LinkResult.parse((await as(MANAGER, url(id))).body).link).toMatchObject({ id: again.id, agentEmail: "sam2@title.example", state: "sent" });

    expect((await as(MANAGER, url(id), { method: "DELETE" })).status).toBe(204);
    expect(LinkResult.parse((await as(MANAGER, url(id))).body).link).toMatchObject({ id: again.id, state: "revoked" });
    const twice = await as(MANAGER, url(id), { method: "DELETE" });
    expect(twice.status).toBe(409);

    const draft = await createHybrid(false);
    const refused = await as(MANAGER, url(draft), { method: "POST", json: { agentName: "Sam Agent", agentEmail: "sam@title.example" } });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ reason: "package_closed" });
  });

  it("is 404 for an unknown package", async () => {
    const res = await as(MANAGER, url("00000000-0000-4000-8000-000000000000"), { method: "POST", json: { agentName: "Sam", agentEmail: "sam@title.example" } });
    expect(res.status).toBe(404);
  });
});
