import { describe, expect, it } from "vitest";
import { frameAncestorsFor, openFrameGrant, sealFrameGrant } from "@/lib/embedded/frame-cookie";
import { buildSecurityHeaders } from "@/lib/security/security-headers";

// Which responses an embedded signing frame may be framed by: the granted package's signer pages
// and the refusal page, by the granted origins; everything else keeps refusing to be framed.

const PKG = "0b7e2f6c-3c1a-4f7e-9a51-6d2f0e1c9a00";
const OTHER = "9d9c1b1e-5a0e-4c3f-8f2e-1a2b3c4d5e6f";
const ORIGINS = ["https://portal.lender.example", "http://localhost:4100"];

describe("the frame grant cookie", () => {
  it("round-trips, and refuses a tampered, truncated or expired value", () => {
    const value = sealFrameGrant({ packageId: PKG, origins: ORIGINS, expiresAt: Date.now() + 60_000 });
    expect(openFrameGrant(value)).toMatchObject({ packageId: PKG, origins: ORIGINS });
    const [payload, mac] = value.split(".");
    const forged = Buffer.from(JSON.stringify({ p: PKG, o: ["https://evil.example"], e: Date.now() + 60_000 })).toString("base64url");
    expect(openFrameGrant(`${forged}.${mac}`)).toBeNull();
    expect(openFrameGrant(`${payload}.${mac!.slice(1)}`)).toBeNull();
    expect(openFrameGrant(payload)).toBeNull();
    expect(openFrameGrant(undefined)).toBeNull();
    expect(openFrameGrant(sealFrameGrant({ packageId: PKG, origins: ORIGINS, expiresAt: Date.now() - 1 }))).toBeNull();
  });

  it("lets only the granted package's signer pages and the refusal page be framed", () => {
    const grant = { packageId: PKG, origins: ORIGINS, expiresAt: Date.now() + 60_000 };
    for (const path of [`/signings/${PKG}`, `/signings/${PKG}/done`, `/signings/${PKG}/bank`, `/signings/${PKG}/documents/x/file`, "/embed/refused"]) {
      expect(frameAncestorsFor(path, grant), path).toEqual(ORIGINS);
    }
    for (const path of [`/signings/${OTHER}`, `/signings/${PKG}/edit`, `/signings/${PKG}/fields`, `/signings/${PKG}/in-person`, "/signings", "/", "/settings/api-keys", "/me/esignatures"]) {
      expect(frameAncestorsFor(path, grant), path).toBeNull();
    }
    expect(frameAncestorsFor(`/signings/${PKG}`, null)).toBeNull();
    expect(frameAncestorsFor(`/signings/${PKG}`, { ...grant, packageId: null })).toBeNull();
  });

  it("puts the origins in frame-ancestors and drops X-Frame-Options only when granted", () => {
    const base = { nonce: "bm9uY2U=", pathname: `/signings/${PKG}`, production: true, appUrl: "https://sign.example.com" };
    const framed = buildSecurityHeaders({ ...base, frameAncestors: ORIGINS });
    expect(framed["Content-Security-Policy"]).toContain("frame-ancestors https://portal.lender.example http://localhost:4100");
    expect(framed["X-Frame-Options"]).toBeUndefined();
    const plain = buildSecurityHeaders(base);
    expect(plain["Content-Security-Policy"]).toContain("frame-ancestors 'none'");
    expect(plain["X-Frame-Options"]).toBe("DENY");
    expect(buildSecurityHeaders({ ...base, pathname: "/embed/abc" })["Referrer-Policy"]).toBe("no-referrer");
    expect(buildSecurityHeaders({ ...base, pathname: "/in-person/abc" })["Referrer-Policy"]).toBe("no-referrer");
  });
});
