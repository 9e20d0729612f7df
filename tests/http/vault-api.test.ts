import { createHash } from "node:crypto";
import { unzipSync } from "fflate";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { organizations, packageDocuments } from "@/db/schema";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { setEnvForTests } from "@/lib/env";
import { sealPackage } from "@/lib/seals/seal-package";
import { callApi, fetchApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { pdfTextPages } from "../helpers/pdf-text";
import { createSignerPackage } from "../helpers/signing-fixtures";

let testDb: TestDb;
let world: DemoWorld;
let investorId: number;

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined });
  const [other] = await testDb.db.select().from(organizations).where(eq(organizations.slug, "other"));
  investorId = other!.id;
  await createUser(testDb.db, "vault-admin@other.local", [{ role: "org_admin", organizationId: investorId }]);
});
afterAll(async () => {
  await testDb.cleanup();
});

/** Through /v1: marks the draft's document transferable, sends the package, the signer e-signs it, then it is sealed. */
async function markSendSignSeal(owner: string, packageId: string, documentId: string, signerEmail: string) {
  const marked = await callApi(`/v1/signing/manager/signings/${packageId}/documents/${documentId}/transferable`, { method: "PUT", token: owner, json: { transferable: true } });
  expect(marked).toMatchObject({ status: 200, body: { documentId, transferable: true } });
  expect((await callApi(`/v1/signing/manager/signings/${packageId}/send`, { method: "POST", token: owner })).status).toBeLessThan(300);
  const signed = await callApi(`/v1/signing/signer/signings/${packageId}/documents/${documentId}/esignatures`, {
    method: "POST",
    token: await tokenFor(signerEmail),
    json: { kind: "typed", text: "Api Borrower", font: "caveat", consent: true },
  });
  expect(signed.status).toBe(201);
  await sealPackage(testDb.db, { packageId });
}

describe("/v1 eVault", () => {
  it("marks a draft's document transferable, and after sealing lists, transfers and serves the record through /v1", async () => {
    const owner = await tokenFor("owner@demo.local");
    const investor = await tokenFor("vault-admin@other.local");
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: "Note via API", status: "draft", signers: [{ email: "api-borrower@demo.local" }] });
    const doc = pkg.documents[0]!;
    const path = `/v1/signing/manager/signings/${pkg.id}/documents/${doc.id}/transferable`;
    expect((await callApi(path, { method: "PUT", token: owner, json: { transferable: "yes" } })).status).toBe(400);
    expect((await callApi(path, { method: "PUT", token: owner, json: { transferable: true, extra: 1 } })).status).toBe(400);
    expect((await callApi(path, { method: "PUT", token: investor, json: { transferable: true } })).status).toBe(404);
    await markSendSignSeal(owner, pkg.id, doc.id, "api-borrower@demo.local");
    // Sent packages refuse the flag.
    expect((await callApi(path, { method: "PUT", token: owner, json: { transferable: false } })).status).toBe(409);

    const list = await callApi("/v1/vault/records", { token: owner });
    expect(list.status).toBe(200);
    const record = (list.body as { data: { id: string; documentId: string; yourRole: string; authoritativeSha256: string }[] }).data.find((r) => r.documentId === doc.id)!;
    expect(record).toMatchObject({ yourRole: "controller" });
    expect((await callApi("/v1/vault/records", { token: investor })).body).toEqual({ data: [] });
    expect((await callApi(`/v1/vault/records/${record.id}`, { token: investor })).status).toBe(404);

    const copy = await callApi(`/v1/vault/records/${record.id}/authoritative-copy`, { token: owner });
    expect(copy.status).toBe(200);
    expect(copy.headers.get("content-type")).toBe("application/pdf");

    expect((await callApi(`/v1/vault/records/${record.id}/transfer`, { token: owner, json: { organizationId: "x" } })).status).toBe(400);
    expect((await callApi(`/v1/vault/records/${record.id}/transfer`, { token: owner, json: { organizationId: 987654 } })).status).toBe(400);
    // By its public identifier (the slug): unknown, malformed, both forms at once and neither are 400s that change nothing.
    const transfer = (json: unknown) => callApi(`/v1/vault/records/${record.id}/transfer`, { token: owner, json });
    expect(await transfer({ organization: "no-such-organization" })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/no organization on the service has that identifier/) } });
    expect((await transfer({ organization: "Other Mortgage!" })).status).toBe(400);
    expect((await transfer({ organization: "other", organizationId: investorId })).status).toBe(400);
    expect((await transfer({ note: "no one" })).status).toBe(400);
    expect((await transfer({ organization: "demo" })).status).toBe(400);
    expect((await callApi(`/v1/vault/records/${record.id}`, { token: owner })).body).toMatchObject({ pendingTransferee: null });
    const offered = await transfer({ organization: "other", note: "Pool 7" });
    expect(offered).toMatchObject({ status: 200, body: { pendingTransferee: { id: investorId, slug: "other", name: "Other Mortgage LLC" }, controller: { slug: "demo" } } });
    expect((await callApi(`/v1/vault/records/${record.id}/transfer`, { token: owner, json: { organizationId: investorId } })).status).toBe(409);
    const accepted = await callApi(`/v1/vault/records/${record.id}/transfer/accept`, { method: "POST", token: investor });
    expect(accepted).toMatchObject({ status: 200, body: { controller: { id: investorId }, yourRole: "controller" } });
    expect((accepted.body as { history: { action: string }[] }).history.map((h) => h.action)).toEqual(["established", "transfer_offered", "transfer_accepted"]);

    expect((await callApi(`/v1/vault/records/${record.id}/authoritative-copy`, { token: owner })).status).toBe(404);
    const theirs = await callApi(`/v1/vault/records/${record.id}/authoritative-copy`, { token: investor });
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get("etag")?.replaceAll('"', "")).toBe(record.authoritativeSha256);

    const paper = await callApi(`/v1/vault/records/${record.id}/paper-out`, { method: "POST", token: investor, json: { note: "Printed for court" } });
    expect(paper).toMatchObject({ status: 200, body: { status: "paper_out" } });
    expect((await callApi(`/v1/vault/records/${record.id}/authoritative-copy`, { token: investor })).status).toBe(409);
    expect((await callApi(`/v1/vault/records/not-a-record/release`, { method: "POST", token: investor })).status).toBe(404);
  });
  it("declines, withdraws, pledges and releases over /v1, each only by the party it belongs to (another party to the record gets a 409, anyone else a 404), and every download of the archive is a marked copy", async () => {
    const owner = await tokenFor("owner@demo.local");
    const investor = await tokenFor("vault-admin@other.local");
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: "Pledged note", status: "draft", signers: [{ email: "pledge-borrower@demo.local" }] });
    const doc = pkg.documents[0]!;
    await markSendSignSeal(owner, pkg.id, doc.id, "pledge-borrower@demo.local");
    const list = (await callApi("/v1/vault/records", { token: owner })).body as { data: { id: string; documentId: string; authoritativeSha256: string }[] };
    const record = list.data.find((r) => r.documentId === doc.id)!;
    const act = (path: string, token: string, json?: unknown) => callApi(`/v1/vault/records/${record.id}/${path}`, { method: "POST", token, json });
    const actions = async () => ((await callApi(`/v1/vault/records/${record.id}`, { token: owner })).body as { history: { action: string }[] }).history.map((h) => h.action);

    // An offer the assignee declines: control stays; only the assignee may decline.
    expect((await act("transfer", owner, { organization: "other" })).status).toBe(200);
    expect((await act("transfer/decline", owner)).status).toBe(409);
    expect(await act("transfer/decline", investor, { note: "Not in this pool" })).toMatchObject({ status: 200, body: { controller: { slug: "demo" }, pendingTransferee: null } });
    expect((await callApi(`/v1/vault/records/${record.id}`, { token: investor })).status).toBe(404);
    // An offer the controller withdraws: only the controller may.
    expect((await act("transfer", owner, { organization: "other" })).status).toBe(200);
    expect((await act("transfer/withdraw", investor)).status).toBe(409);
    expect(await act("transfer/withdraw", owner)).toMatchObject({ status: 200, body: { pendingTransferee: null } });
    // A pledge blocks transfer and paper-out until the secured party releases it.
    expect(await act("pledge", owner, { organization: "other", note: "Warehouse line" })).toMatchObject({ status: 200, body: { pledgee: { slug: "other" } } });
    expect((await act("transfer", owner, { organization: "other" })).status).toBe(409);
    expect((await act("paper-out", owner)).status).toBe(409);
    expect((await act("release", owner)).status).toBe(409);
    expect(await act("release", investor)).toMatchObject({ status: 200, body: { pledgee: null } });
    expect((await act("release", investor)).status).toBe(404);
    expect(await actions()).toEqual(["established", "transfer_offered", "transfer_declined", "transfer_offered", "transfer_withdrawn", "pledged", "released"]);

    // The sealed archive, as the sender's managers download it, holds a marked copy, not the authoritative copy.
    const zip = await fetchApi(new Request(`http://core-api.test/v1/signing/manager/signings/${pkg.id}/sealed/all`, { headers: { authorization: `Bearer ${owner}` } }));
    expect(zip.status).toBe(200);
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const sealedEntry = Object.entries(entries).find(([name]) => !name.startsWith("Certificate"))!;
    expect(sha256(sealedEntry[1])).not.toBe(record.authoritativeSha256);
    const pages = await pdfTextPages(sealedEntry[1]);
    expect(pages.length).toBeGreaterThan(0);
    for (const page of pages) expect(page.replace(/\s+/g, " ")).toMatch(/COPY.*held in the eVault of Demo Lending Co\./);
  });
});

describe("/v1 template documents marked transferable", () => {
  it("packages created from the template start with the document marked; bad input and other organizations change nothing", async () => {
    const owner = await tokenFor("owner@demo.local");
    const created = await callApi("/v1/signing/manager/templates", { token: owner, json: { name: "RIC template", organizationId: world.austin.organizationId, roles: [{ key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 }] } });
    expect(created.status).toBe(201);
    const templateId = (created.body as { id: string }).id;
    const pdf = await renderAgreementPdf({ title: "Retail installment contract", parties: ["Buyer"], pages: 1 });
    const upload = await fetchApi(
      new Request(`http://core-api.test/v1/signing/manager/templates/${templateId}/documents?name=RIC.pdf`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner}`, "content-type": "application/pdf" },
        body: pdf as Uint8Array<ArrayBuffer>,
      }),
    );
    expect(upload.status).toBe(201);
    const docId = ((await upload.json()) as { id: string }).id;
    const path = `/v1/signing/manager/templates/${templateId}/documents/${docId}/transferable`;
    expect((await callApi(path, { method: "PUT", token: owner, json: {} })).status).toBe(400);
    expect((await callApi(path, { method: "PUT", token: await tokenFor("vault-admin@other.local"), json: { transferable: true } })).status).toBe(404);
    expect(await callApi(path, { method: "PUT", token: owner, json: { transferable: true } })).toMatchObject({ status: 200, body: { documentId: docId, transferable: true } });
    expect((await callApi(`/v1/signing/manager/templates/${templateId}`, { token: owner })).body).toMatchObject({ documents: [{ id: docId, transferable: true }] });

    const pkg = await callApi("/v1/signing/manager/signings", {
      token: owner,
      json: { locationId: world.austin.id, title: "From the RIC template", templateId, signers: [{ name: "Tim Template", email: "tim@demo.local", role: "signer", routingOrder: 1, templateRole: "buyer" }] },
    });
    expect(pkg.status).toBe(201);
    const [copy] = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, (pkg.body as { id: string }).id));
    expect(copy).toMatchObject({ name: "RIC.pdf", transferable: true });
  });
});
