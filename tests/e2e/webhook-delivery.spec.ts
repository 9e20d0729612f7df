import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { openDb, type DbHandle } from "@/db/client";
import { locations, webhookEndpoints } from "@/db/schema";
import { createSignerPackage } from "../helpers/signing-fixtures";
import { SignPanel } from "./pages/sign-panel";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";

// Outbound webhooks end to end: an organization admin adds an endpoint in the workspace, pointing at a
// receiver in this test; a borrower signs in another browser; the receiver gets the events, each
// verified with the `standardwebhooks` package and the secret the page showed once; the admin replays
// one from the delivery log and the receiver gets it again with the same webhook-id.

type Received = { id: string; type: string; data: Record<string, unknown> };

/** A receiver on 127.0.0.1 that keeps only what verifies with the endpoint's secret. */
class Receiver {
  verified: Received[] = [];
  rejected = 0;
  secret = "";
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        const payload = new Webhook(this.secret).verify(Buffer.concat(chunks).toString("utf8"), headersOf(req.headers)) as Omit<Received, "id">;
        this.verified.push({ id: String(req.headers["webhook-id"]), type: payload.type, data: payload.data });
        res.writeHead(204).end();
      } catch {
        this.rejected += 1;
        res.writeHead(400).end();
      }
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  of(packageId: string): Received[] {
    return this.verified.filter((e) => e.data.packageId === packageId);
  }
}

const headersOf = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));

let handle: DbHandle;
const receiver = new Receiver();
let receiverUrl: string;

test.beforeAll(async () => {
  test.skip(!e2eDatabaseUrl(), "needs the run's PostgreSQL database to create a package (PGlite is held by the server)");
  handle = await openDb({ url: e2eDatabaseUrl() }, { max: 1 });
  receiverUrl = await receiver.start();
});

test.afterAll(async () => {
  // The endpoint goes with the test, so later tests' events are not sent to a receiver that is gone.
  await handle?.db.delete(webhookEndpoints).where(eq(webhookEndpoints.url, receiverUrl));
  await handle?.close();
  await receiver.stop();
});

test.describe("outbound webhooks, delivered", { tag: "@desktop" }, () => {
  test("an admin's endpoint receives a borrower's consent and signature as verified events, and a replay from the log", async ({ page, browser }) => {
    const label = `Loan system ${randomBytes(3).toString("hex")}`;
    await signInAs(page, "owner@demo.local");
    await page.goto("/workspace/webhooks");
    const form = page.getByRole("form", { name: "Add an endpoint" });
    await form.getByLabel("URL").fill(receiverUrl);
    await form.getByLabel("Description (optional)").fill(label);
    await form.getByRole("button", { name: "Add endpoint" }).click();
    await expect(form.getByRole("status")).toContainText("Endpoint added");
    receiver.secret = await page.getByTestId("signing-secret").inputValue();

    // A borrower signs a package of the same organization, in a browser of their own.
    const [austin] = await handle.db.select().from(locations).where(eq(locations.name, "Austin Branch"));
    const pkg = await createSignerPackage(handle.db, { location: austin!, signers: [{ email: "signer@demo.local" }], title: `Webhook journey ${label}` });
    const borrower = await browser.newContext();
    try {
      const signerPage = await borrower.newPage();
      await signInAs(signerPage, "signer@demo.local", { landsOn: `/signings/${pkg.id}` });
      const panel = new SignPanel(signerPage);
      await panel.consent();
      await panel.adoptTyped("Sam Signer", "Dancing Script");
      await panel.signButton("Document 1.pdf").click();
      await expect(panel.allSigned).toBeVisible();
    } finally {
      await borrower.close();
    }

    const signer = pkg.signers[0]!;
    await expect.poll(() => receiver.of(pkg.id).map((e) => e.type), { timeout: 20_000 }).toEqual(
      expect.arrayContaining(["signer.consented", "signer.signed"]),
    );
    expect(receiver.rejected).toBe(0);
    const signed = receiver.of(pkg.id).find((e) => e.type === "signer.signed")!;
    expect(signed.data).toEqual({
      packageId: pkg.id,
      organizationId: austin!.organizationId,
      signerId: signer.id,
      documentId: pkg.documents[0]!.id,
      eSignatureId: expect.any(String),
    });
    // Ids only: no name, email, link or code travels.
    expect(JSON.stringify(receiver.of(pkg.id))).not.toMatch(/signer@demo\.local|Sam Signer|https?:\/\//);

    // The delivery log shows it delivered; a replay sends the same event (same webhook-id) again.
    await page.reload();
    const endpoint = page.getByTestId("webhook-endpoint").filter({ hasText: label });
    await endpoint.getByRole("link", { name: `Delivery log of ${label}` }).click();
    const replay = page.getByRole("button", { name: `Replay signer.signed ${signed.id}` });
    const row = page.getByTestId("webhook-delivery").filter({ has: replay });
    await expect(row).toContainText("#1: 204");
    await expectNoAxeViolations(page);
    const before = receiver.verified.filter((e) => e.id === signed.id).length;
    await replay.click();
    await expect(row.getByRole("status")).toHaveText("Event queued again.");
    await expect.poll(() => receiver.verified.filter((e) => e.id === signed.id).length, { timeout: 20_000 }).toBe(before + 1);
  });
});
