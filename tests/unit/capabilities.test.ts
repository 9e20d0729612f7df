import { describe, expect, it } from "vitest";
import { capabilitiesOf, scopeContains, scopeOf } from "@/lib/auth/capabilities";

const place = { organizationId: 1, companyId: 10, locationId: 100 };

describe("scopes", () => {
  it("derives the narrowest scope from a membership", () => {
    expect(scopeOf({ role: "admin", organizationId: null, companyId: null, locationId: null })).toEqual({ type: "global" });
    expect(scopeOf({ role: "manager", organizationId: 1, companyId: null, locationId: null })).toEqual({ type: "organization", organizationId: 1 });
    expect(scopeOf({ role: "manager", organizationId: 1, companyId: 10, locationId: null })).toEqual({ type: "company", organizationId: 1, companyId: 10 });
    expect(scopeOf({ role: "manager", organizationId: 1, companyId: 10, locationId: 100 })).toMatchObject({ type: "location", locationId: 100 });
  });

  it.each([
    [{ type: "global" } as const, place, true],
    [{ type: "organization", organizationId: 1 } as const, place, true],
    [{ type: "organization", organizationId: 2 } as const, place, false],
    [{ type: "company", organizationId: 1, companyId: 10 } as const, place, true],
    [{ type: "company", organizationId: 1, companyId: 11 } as const, place, false],
    [{ type: "location", organizationId: 1, companyId: 10, locationId: 100 } as const, place, true],
    [{ type: "location", organizationId: 1, companyId: 10, locationId: 101 } as const, place, false],
    [{ type: "location", organizationId: 2, companyId: 10, locationId: 100 } as const, place, false],
  ])("%j contains the place: %#", (scope, target, expected) => {
    expect(scopeContains(scope, target)).toBe(expected);
  });
});

describe("capabilitiesOf", () => {
  it("gives everyone the signer capabilities and nothing more without roles", () => {
    expect(capabilitiesOf([])).toEqual(["bank:link", "signer:esignatures:write", "signer:signings:read"]);
  });
  it("unions roles without duplicates, sorted", () => {
    const caps = capabilitiesOf([
      { id: "a", role: "manager", scope: { type: "organization", organizationId: 1 } },
      { id: "b", role: "admin", scope: { type: "global" } },
    ]);
    expect(caps).toEqual([...new Set(caps)].sort());
    expect(caps).toContain("signings:write");
  });
});
