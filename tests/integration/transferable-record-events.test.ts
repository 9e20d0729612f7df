import { asc, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries, webhookEvents } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { setEnvForTests } from "@/lib/env";
import { acceptTransfer, convertToPaper, declineTransfer, offerTransfer, pledgeRecord, releasePledge, withdrawTransfer } from "@/lib/transferable-records/change-control";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { loadVaultWorld, sealedTransferable } from "../helpers/vault-world";

let testDb: TestDb;
let world: DemoWorld;
let lender: Principal;
let investor: Principal;
let bank: Principal;
let ids: { lender: number; investor: number; bank: number };
const endpoints: Record<number, string> = {};

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined, WEBHOOKS_ALLOW_LOOPBACK: "1" });
  ({ ids, lender, investor, bank } = await loadVaultWorld(testDb.db, world, "warehouse-bank-events"));
  // Each organization subscribes only to control changes: every delivery below is one of them.
  for (const [principal, organizationId] of [[lender, ids.lender], [investor, ids.investor], [bank, ids.bank]] as const) {
    const endpoint = await createWebhookEndpoint(testDb.db, {
      principal,
      organizationId,
      url: `http://127.0.0.1:9/hooks/${organizationId}`,
      eventTypes: [
        "transferable_record.transfer_offered",
        "transferable_record.transfer_accepted",
        "transferable_record.transfer_declined",
        "transferable_record.transfer_withdrawn",
        "transferable_record.pledged",
        "transferable_record.released",
        "transferable_record.converted_to_paper",
      ],
    });
    endpoints[organizationId] = endpoint.id;
  }
});
afterAll(async () => {
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined, WEBHOOKS_ALLOW_LOOPBACK: undefined });
  await testDb.cleanup();
});

async function sealedRecord() {
  return sealedTransferable(testDb.db, { world, lender, title: "Retail installment contract (events)", buyer: `events-buyer-${Date.now()}@demo.local` });
}

/** The record's control events since `after` events were seen: [type, receiving organization, its data], in order. */
async function eventsOf(recordId: string) {
  const rows = await testDb.db.select().from(webhookEvents).where(inArray(webhookEvents.type, [
    "transferable_record.transfer_offered",
    "transferable_record.transfer_accepted",
    "transferable_record.transfer_declined",
    "transferable_record.transfer_withdrawn",
    "transferable_record.pledged",
    "transferable_record.released",
    "transferable_record.converted_to_paper",
  ])).orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id));
  return rows.filter((r) => (r.data as { recordId: string }).recordId === recordId);
}

describe("webhook events for control changes of transferable records", () => {
  it("each change reaches the controller and the other organization it concerns, with the log entry's organizations, and a refused change sends nothing", async () => {
    const { pkg, record } = await sealedRecord();
    const base = { recordId: record.id, packageId: pkg.id, documentId: record.documentId };

    await offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.investor });
    await declineTransfer(testDb.db, { principal: investor, recordId: record.id });
    await offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.bank });
    await withdrawTransfer(testDb.db, { principal: lender, recordId: record.id });
    await offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.investor });
    await acceptTransfer(testDb.db, { principal: investor, recordId: record.id });
    // The previous controller can no longer act: refused, and no event leaves.
    await expect(offerTransfer(testDb.db, { principal: lender, recordId: record.id, toOrganizationId: ids.bank })).rejects.toMatchObject({ code: "not_found" });
    await pledgeRecord(testDb.db, { principal: investor, recordId: record.id, toOrganizationId: ids.bank });
    await releasePledge(testDb.db, { principal: bank, recordId: record.id });
    await convertToPaper(testDb.db, { principal: investor, recordId: record.id });

    const events = await eventsOf(record.id);
    const seen = events.map((e) => [e.type, e.organizationId, e.data]);
    const L = ids.lender;
    const I = ids.investor;
    const B = ids.bank;
    const change = (seq: number, controller: number, from: number | null, to: number | null) => ({ ...base, seq, controllerOrganizationId: controller, fromOrganizationId: from, toOrganizationId: to });
    const both = (type: string, change: Record<string, unknown>, first: number, second: number) => [
      [type, first, { ...change, organizationId: first }],
      [type, second, { ...change, organizationId: second }],
    ];
    // Within one change the two organizations' events may be in either order.
    const sort = (list: unknown[][]) => [...list].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const expected = [
      ...both("transferable_record.transfer_offered", change(2, L, L, I), L, I),
      ...both("transferable_record.transfer_declined", change(3, L, L, I), L, I),
      ...both("transferable_record.transfer_offered", change(4, L, L, B), L, B),
      ...both("transferable_record.transfer_withdrawn", change(5, L, L, B), L, B),
      ...both("transferable_record.transfer_offered", change(6, L, L, I), L, I),
      ...both("transferable_record.transfer_accepted", change(7, I, L, I), L, I),
      ...both("transferable_record.pledged", change(8, I, I, B), I, B),
      ...both("transferable_record.released", change(9, I, B, I), I, B),
      ["transferable_record.converted_to_paper", I, { ...change(10, I, I, null), organizationId: I }],
    ];
    expect(sort(seen)).toEqual(sort(expected));
    // In log order.
    expect(events.map((e) => (e.data as { seq: number }).seq)).toEqual([2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10]);

    // Each event is delivered to its organization's endpoint, and only there.
    const deliveries = await testDb.db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, events.map((e) => e.id)));
    expect(deliveries).toHaveLength(events.length);
    for (const event of events) {
      expect(deliveries.filter((d) => d.eventId === event.id).map((d) => d.endpointId)).toEqual([endpoints[event.organizationId]]);
    }
  });
});
