import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signingPackages } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { getBankStep } from "@/lib/bank/get-bank-step";
import { issueAccessLink } from "@/lib/signer-access/issue-access-link";
import { viewAccessLink } from "@/lib/signer-access/open-access-link";
import { getSignerPackagePage } from "@/lib/views/get-signer-package-page";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, loadManagerWorld } from "../helpers/manager";
import { createSignerPackage, pngDataUrl } from "../helpers/signing-fixtures";

// What the borrower's pages get of the lender's brand: the access link's page, the package and done
// pages (one loader) and the bank step all name the lender by its display name and carry its mark.

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
});
afterAll(async () => {
  await testDb.cleanup();
});

describe("the lender's brand on the borrower's pages", () => {
  it("without a brand, the organization's name and the default colour; with one, the display name, colour and logo everywhere", async () => {
    const email = "brand-borrower@example.com";
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: "Brand pages: boat loan", signers: [{ email }] });
    const [signing] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, pkg.id));
    const principal = await resolvePrincipal(testDb.db, localSubjectForEmail(email));
    const signerId = pkg.signers[0]!.id;

    const token = (await issueAccessLink(testDb.db, { signing: signing!, signerId })).split("/access/")[1]!;
    expect(await viewAccessLink(testDb.db, { token })).toMatchObject({
      state: "open",
      senderName: "Demo Lending Co.",
      brand: { displayName: "Demo Lending Co.", color: "#1d4ed8", logoPath: null },
    });

    expect((await as("owner@demo.local", "/v1/workspace/settings", { method: "PATCH", json: { branding: { displayName: "Lone Star Auto Credit", brandColor: "#0f5132" } } })).status).toBe(200);
    const logo = new Uint8Array(Buffer.from(pngDataUrl(60, 20).split(",")[1]!, "base64"));
    const put = await as("owner@demo.local", "/v1/workspace/settings/logo", { method: "PUT", body: new Blob([logo as Uint8Array<ArrayBuffer>]), headers: { "content-type": "image/png" } });
    expect(put.status).toBe(200);
    const brand = { displayName: "Lone Star Auto Credit", color: "#0f5132", logoPath: expect.stringMatching(/^\/branding\/\d+\/logo\?v=[0-9a-f]{16}$/) };

    expect(await viewAccessLink(testDb.db, { token })).toMatchObject({ state: "open", senderName: "Lone Star Auto Credit", brand });
    const page = await getSignerPackagePage(testDb.db, { principal, packageId: pkg.id });
    expect(page.brand).toMatchObject(brand);
    // "From …", "… cancelled this package", the decline dialog: the name borrowers know.
    expect(page.sender.organizationName).toBe("Lone Star Auto Credit");
    expect((await getBankStep(testDb.db, { principal, packageId: pkg.id })).brand).toMatchObject(brand);
  });
});
