import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor } from "../helpers/fixtures";
import { as, BASE, loadManagerWorld, SigningJson } from "../helpers/manager";
import { ensureUser } from "../helpers/signing-fixtures";

// A signer acknowledges a review-only document through /v1 (the web form's rule, acknowledgeDocument),
// and the signer's package view shows where each document stands.

const MANAGER = "manager@demo.local";
const SIGNER = "reader-api@demo.local";
const SIGNER_BASE = "/v1/signing/signer/signings";

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
  await ensureUser(testDb.db, SIGNER);
}, 120_000);
afterAll(() => testDb.cleanup());

const base64 = async (title: string) => Buffer.from(await renderAgreementPdf({ title, parties: ["Borrower"], pages: 1 })).toString("base64");
type View = { status: string; documents: { id: string; name: string; executionMode: string; executionStatus: string }[] };

async function sentPackage(): Promise<string> {
  const created = await as(MANAGER, `${BASE}/signings`, {
    json: {
      locationId: world.austin.id,
      title: "Read and sign",
      signers: [{ name: "Rea Der", email: SIGNER }],
      documents: [
        { name: "Contract.pdf", contentBase64: await base64("Contract") },
        { name: "Booklet.pdf", contentBase64: await base64("Booklet"), executionMode: "review_only" },
      ],
    },
  });
  expect(created.status).toBe(201);
  const id = SigningJson.parse(created.body).id;
  expect((await as(MANAGER, `${BASE}/signings/${id}/send`, { method: "POST" })).status).toBe(200);
  return id;
}

describe("POST /v1/signing/signer/signings/{id}/documents/{docId}/acknowledge", () => {
  it("acknowledges a review-only document once, shows it in the signer's view, and refuses a document to sign", async () => {
    const id = await sentPackage();
    const before = (await as(SIGNER, `${SIGNER_BASE}/${id}`)).body as View;
    expect(before.documents.map((d) => [d.name, d.executionMode, d.executionStatus])).toEqual([
      ["Contract.pdf", "esign", "pending"],
      ["Booklet.pdf", "review_only", "pending"],
    ]);
    const [contract, booklet] = before.documents;

    // As curl sends it: POST with no body and no Content-Type.
    const acknowledged = await as(SIGNER, `${SIGNER_BASE}/${id}/documents/${booklet!.id}/acknowledge`, { method: "POST" });
    expect(acknowledged.status).toBe(200);
    expect((acknowledged.body as View).documents.find((d) => d.id === booklet!.id)!.executionStatus).toBe("acknowledged");
    expect((acknowledged.body as View).status).not.toBe("completed");

    // Again: the same answer, nothing new recorded.
    const again = await as(SIGNER, `${SIGNER_BASE}/${id}/documents/${booklet!.id}/acknowledge`, { method: "POST" });
    expect(again.status).toBe(200);
    const entries = (await auditEntriesFor(testDb.db, id)).filter((e) => e.entityId === booklet!.id && JSON.stringify(e.after ?? {}).includes("acknowledged"));
    expect(entries).toHaveLength(1);

    // A document to e-sign is not acknowledged.
    const refused = await as(SIGNER, `${SIGNER_BASE}/${id}/documents/${contract!.id}/acknowledge`, { method: "POST" });
    expect(refused.status).toBe(409);
    expect(((await as(SIGNER, `${SIGNER_BASE}/${id}`)).body as View).documents.find((d) => d.id === contract!.id)!.executionStatus).toBe("pending");

    // The manager's closing view sees the same state.
    const closing = (await as(MANAGER, `${BASE}/signings/${id}/closing`)).body as { documents: { id: string; executionStatus: string }[] };
    expect(closing.documents.find((d) => d.id === booklet!.id)!.executionStatus).toBe("acknowledged");
  });

  it("is the signer's alone: a manager who is not a signer of the package, and another package's document, get no change", async () => {
    const id = await sentPackage();
    const view = (await as(SIGNER, `${SIGNER_BASE}/${id}`)).body as View;
    const booklet = view.documents.find((d) => d.executionMode === "review_only")!;
    const byManager = await as(MANAGER, `${SIGNER_BASE}/${id}/documents/${booklet.id}/acknowledge`, { method: "POST" });
    expect([403, 404]).toContain(byManager.status);
    const other = await sentPackage();
    const crossed = await as(SIGNER, `${SIGNER_BASE}/${other}/documents/${booklet.id}/acknowledge`, { method: "POST" });
    expect(crossed.status).toBe(404);
    expect(((await as(SIGNER, `${SIGNER_BASE}/${id}`)).body as View).documents.find((d) => d.id === booklet.id)!.executionStatus).toBe("pending");
  });
});
