import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditLog, organizationLogos, organizations, outboxEmails } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { GET as getLogoRoute } from "@/app/branding/[organizationId]/logo/route";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, BASE, createReadyDraft, loadManagerWorld } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";
import { pngDataUrl } from "../helpers/signing-fixtures";

// The lender's brand through /v1: the settings that hold it, the logo upload and what a borrower's
// email shows of it.

let testDb: TestDb;
let orgId: number;
let austinId: number;

beforeAll(async () => {
  setEnvForTests({ APP_URL: "https://sign.example.com" });
  testDb = await createTestDb();
  const world = await loadManagerWorld(testDb.db);
  orgId = world.austin.organizationId;
  austinId = world.austin.id;
});
afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

const png = (w = 40, h = 20) => new Uint8Array(Buffer.from(pngDataUrl(w, h).split(",")[1]!, "base64"));
const putLogo = (bytes: Uint8Array, contentType = "image/png", email = "owner@demo.local") =>
  as(email, "/v1/workspace/settings/logo", { method: "PUT", body: new Blob([bytes as Uint8Array<ArrayBuffer>]), headers: { "content-type": contentType } });
const settings = async () => (await as("owner@demo.local", "/v1/workspace/settings")).body as { branding: Record<string, unknown> };
const logoRows = () => testDb.db.select().from(organizationLogos);

describe("brand colour", () => {
  it("refuses a colour white text cannot be read on, saying why, and changes nothing", async () => {
    const [before] = await testDb.db.select().from(organizations).where(eq(organizations.id, orgId));
    // #ffcc00 (amber) against white is about 1.6:1; #888888 is about 3.5:1, close but under AA.
    for (const color of ["#ffcc00", "#888888"]) {
      const res = await as("owner@demo.local", "/v1/workspace/settings", { method: "PATCH", json: { branding: { brandColor: color } } });
      expect(res.status, color).toBe(400);
      const { error } = ErrorBody.parse(res.body);
      expect(error).toContain(color);
      expect(error).toMatch(/4\.5:1/);
      expect(error).toMatch(/darker/);
    }
    const [after] = await testDb.db.select().from(organizations).where(eq(organizations.id, orgId));
    expect(after).toEqual(before);
  });

  it("accepts a dark colour and the other brand fields; null clears them", async () => {
    const res = await as("owner@demo.local", "/v1/workspace/settings", {
      method: "PATCH",
      json: { branding: { brandColor: "#0F5132", displayName: "Acme Home Loans", supportEmail: "help@acme.example", supportPhone: "+1 512 555 0100", footer: "NMLS #12345" } },
    });
    expect(res.status, res.text).toBe(200);
    expect((res.body as { branding: unknown }).branding).toEqual({
      logoUrl: null,
      brandColor: "#0f5132",
      displayName: "Acme Home Loans",
      supportEmail: "help@acme.example",
      supportPhone: "+1 512 555 0100",
      footer: "NMLS #12345",
      logo: null,
    });
    for (const bad of [{ supportEmail: "not-an-email" }, { supportPhone: "call me" }, { footer: "x".repeat(201) }, { displayName: "" }]) {
      const refused = await as("owner@demo.local", "/v1/workspace/settings", { method: "PATCH", json: { branding: bad } });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe("PUT /v1/workspace/settings/logo", () => {
  it("stores a PNG and serves it from our origin with a versioned URL", async () => {
    const bytes = png();
    const res = await putLogo(bytes);
    expect(res.status, res.text).toBe(200);
    const logo = res.body as { url: string; contentType: string; sizeBytes: number; width: number; height: number };
    expect(logo).toMatchObject({ contentType: "image/png", sizeBytes: bytes.byteLength, width: 40, height: 20 });
    expect(logo.url).toMatch(new RegExp(`^/branding/${orgId}/logo\\?v=[0-9a-f]{16}$`));
    expect((await settings()).branding.logo).toEqual(logo);

    const served = await getLogoRoute(new Request(`https://sign.example.com${logo.url}`), { params: Promise.resolve({ organizationId: String(orgId) }) });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("content-security-policy")).toContain("sandbox");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(bytes);

    const audit = await testDb.db.select().from(auditLog).where(eq(auditLog.action, "settings.logo_uploaded"));
    expect(audit).toHaveLength(1);
  });

  it("refuses what is not a PNG or JPEG, whatever the declared type, and keeps the stored logo", async () => {
    const before = await logoRows();
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const html = new TextEncoder().encode("<html><body>hello</body></html>");
    for (const [bytes, type] of [[svg, "image/png"], [html, "image/jpeg"], [new Uint8Array(0), "image/png"]] as const) {
      const res = await putLogo(bytes, type);
      expect(res.status).toBe(400);
      expect(ErrorBody.parse(res.body).error).toMatch(/PNG or JPEG|empty/);
    }
    const gif = await putLogo(new TextEncoder().encode("GIF89a...."), "image/gif");
    expect(gif.status).toBe(400);
    expect(await logoRows()).toEqual(before);
  });

  it("refuses an oversized file (413) and an image with giant sides (400)", async () => {
    const before = await logoRows();
    const big = new Uint8Array(600 * 1024);
    big.set(png(), 0);
    const tooBig = await putLogo(big);
    expect(tooBig.status).toBe(413);
    expect(ErrorBody.parse(tooBig.body).error).toMatch(/512 KiB/);
    const giant = await putLogo(png(5000, 1));
    expect(giant.status).toBe(400);
    expect(ErrorBody.parse(giant.body).error).toMatch(/5000×1/);
    expect(await logoRows()).toEqual(before);
  });

  it("is for organization admins only", async () => {
    expect((await putLogo(png(), "image/png", "manager@demo.local")).status).toBe(403);
    expect((await putLogo(png(), "image/png", "manager@other.local")).status).toBe(403);
    expect((await as("manager@demo.local", "/v1/workspace/settings/logo", { method: "DELETE" })).status).toBe(403);
  });

  it("an unknown organization's logo is a 404", async () => {
    const res = await getLogoRoute(new Request("https://sign.example.com/branding/999999/logo"), { params: Promise.resolve({ organizationId: "999999" }) });
    expect(res.status).toBe(404);
    const odd = await getLogoRoute(new Request("https://sign.example.com/branding/x/logo"), { params: Promise.resolve({ organizationId: "1e3" }) });
    expect(odd.status).toBe(404);
  });
});

describe("a borrower's invitation carries the lender's brand", () => {
  it("sender name, reply-to, logo, colour and footer", async () => {
    const id = await createReadyDraft("manager@demo.local", austinId, "pia.branding@example.com");
    expect((await as("manager@demo.local", `${BASE}/signings/${id}/send`, { method: "POST" })).status).toBe(200);
    await runDueJobs(testDb.db, { workerId: "branding-test" });
    const [mail] = await testDb.db.select().from(outboxEmails).where(eq(outboxEmails.to, "pia.branding@example.com"));
    expect(mail, "the invitation is in the outbox").toBeDefined();
    expect(mail!.from).toMatch(/^"Acme Home Loans via Closing & Signing" <[^<>]+>$/);
    expect(mail!.replyTo).toBe("help@acme.example");
    expect(mail!.text).toContain("Acme Home Loans");
    expect(mail!.text).toContain("Questions? help@acme.example · +1 512 555 0100");
    expect(mail!.text).toContain("NMLS #12345");
    const logoUrl = (await settings()).branding.logo as { url: string };
    expect(mail!.html).toContain(`src="https://sign.example.com${logoUrl.url}"`);
    expect(mail!.html).toContain("background: #0f5132");
  });

  it("DELETE removes the logo; the next mail shows the name alone", async () => {
    expect((await as("owner@demo.local", "/v1/workspace/settings/logo", { method: "DELETE" })).status).toBe(204);
    expect(await logoRows()).toEqual([]);
    expect((await settings()).branding.logo).toBeNull();
  });
});
