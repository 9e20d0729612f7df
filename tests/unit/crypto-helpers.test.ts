import { describe, expect, it } from "vitest";
import { canonicalJson, hashAuditEntry } from "@/lib/audit/record-audit-entry";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { deriveLocalKeys } from "@/lib/auth/local-keys";
import { uuidv7 } from "@/db/uuidv7";
import { isUuid } from "@/lib/ids";

describe("uuidv7", () => {
  it("is a version 7 RFC 9562 UUID ordered by time", () => {
    const a = uuidv7(1_700_000_000_000);
    const b = uuidv7(1_700_000_000_001);
    expect(isUuid(a)).toBe(true);
    expect(a[14]).toBe("7");
    expect("89ab").toContain(a[19]);
    expect(a < b).toBe(true);
  });
});

describe("passwords", () => {
  it("verifies the right password and rejects others", async () => {
    const stored = await hashPassword("correct horse");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct horsE", stored)).toBe(false);
    expect(await verifyPassword("correct horse", "plain")).toBe(false);
  });
  it("salts every hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });
});

describe("local signing keys", () => {
  it("derive deterministically from the secret", () => {
    const a = deriveLocalKeys("secret-one-that-is-long-enough-for-tests");
    const b = deriveLocalKeys("secret-one-that-is-long-enough-for-tests");
    const c = deriveLocalKeys("secret-two-that-is-long-enough-for-tests");
    expect(a.kid).toBe(b.kid);
    expect(a.publicJwk.x).toBe(b.publicJwk.x);
    expect(c.kid).not.toBe(a.kid);
  });
});

describe("audit hashing", () => {
  it("canonical JSON ignores key order", () => {
    expect(canonicalJson({ b: 1, a: [2, { d: 3, c: 4 }] })).toBe(canonicalJson({ a: [2, { c: 4, d: 3 }], b: 1 }));
  });
  it("changes when any field or the predecessor changes", () => {
    const base = {
      organizationId: 1,
      packageId: "p",
      actorUserId: "u",
      action: "signing.created",
      entityType: "signing_package",
      entityId: "p",
      ipAddress: null,
      before: null,
      after: { status: "draft" },
      createdAt: new Date("2026-01-01T00:00:00Z"),
      prevHash: null,
    };
    const h = hashAuditEntry(base);
    expect(hashAuditEntry({ ...base })).toBe(h);
    expect(hashAuditEntry({ ...base, after: { status: "sent" } })).not.toBe(h);
    expect(hashAuditEntry({ ...base, prevHash: "x" })).not.toBe(h);
  });
});
