import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { packageDocuments, users } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { setEnvForTests } from "@/lib/env";
import { signingPackages } from "@/db/schema";
import { createSigning } from "@/lib/signings/create-signing";
import { createTemplate } from "@/lib/templates/create-template";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { getDemoPackage } from "../helpers/signing-fixtures";

// Server actions are public endpoints: anyone signed in can post any FormData to them, not only the
// forms we render. This fuzz posts random subsets of the console's field names with random values
// (junk, real ids of both organizations, JSON) and requires every answer to be form state or a
// redirect: never an exception (a 500). next-auth's session lookup is replaced by a signed-in user.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId, name: "", email: "" } } : null),
}));
vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: () => undefined,
}));

type Action = (previous: { status: "idle" }, formData: FormData) => Promise<unknown>;

const actions: Record<string, Action> = {
  ...(await import("@/app/(manager)/signings/_detail/actions")),
  ...(await import("@/app/(manager)/signings/_signing-form/actions")),
  ...(await import("@/app/(manager)/signings/bulk/actions")),
  ...(await import("@/app/(manager)/signings/[id]/fields/actions")),
  ...(await import("@/app/(manager)/templates/[id]/fields/actions")),
  ...(await import("@/app/(manager)/documents/[id]/actions")),
  ...(await import("@/app/(manager)/documents/new/actions")),
  ...(await import("@/app/(manager)/workspace/members/actions")),
  ...(await import("@/app/(manager)/workspace/settings/actions")),
  createFlowAction: (await import("@/app/(manager)/flows/actions")).createFlowAction,
  createTemplateAction: (await import("@/app/(manager)/templates/actions")).createTemplateAction,
  createOrganizationAction: (await import("@/app/(manager)/places/actions")).createOrganizationAction,
  createCompanyAction: (await import("@/app/(manager)/places/actions")).createCompanyAction,
  createLocationAction: (await import("@/app/(manager)/places/actions")).createLocationAction,
} as Record<string, Action>;

const FIELD_NAMES = [
  "signingId", "documentId", "templateId", "flowId", "membershipId", "organizationId", "companyId", "locationId", "parentId",
  "fields", "reason", "title", "message", "intent", "removeDocument", "csv", "name", "slug", "steps", "isDefault", "description",
  "roles.0.key", "roles.0.label", "roles.0.role", "roles.0.routingOrder", "signers.0.name", "signers.0.email", "signers.0.role",
  "signers.0.routingOrder", "signers.0.id", "email", "role", "scope", "body", "recipient", "subject", "type", "place",
  "borrowerName", "borrowerEmail", "collateralYear", "coBorrowers.0.email", "timezone", "settings",
];

let testDb: TestDb;
let world: DemoWorld;
let ids: string[];
let templateId: string;
/** A draft of organization A that only the cross-organization test names (the fuzz may delete or send the seeded one). */
let targetDraftId: string;

beforeAll(async () => {
  setEnvForTests({ REALTIME_URL: "memory:" });
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  const demo = await getDemoPackage(testDb.db);
  const otherDocs = await testDb.db.select({ id: packageDocuments.id }).from(packageDocuments);
  ids = [demo.id, demo.draftId, demo.document.id, demo.signers[0]!.id, ...otherDocs.map((d) => d.id)];
  await createUser(testDb.db, "org-admin@other.local", [{ role: "org_admin", organizationId: world.tulsa.organizationId }]);
  const ownerPrincipal = await resolvePrincipal(testDb.db, localSubjectForEmail("owner@demo.local"));
  templateId = (
    await createTemplate(testDb.db, {
      principal: ownerPrincipal,
      organizationId: world.austin.organizationId,
      name: "Fuzz template",
      roles: [{ key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 }],
    })
  ).id;
  ids.push(templateId);
  targetDraftId = (await createSigning(testDb.db, { principal: ownerPrincipal, locationId: world.austin.id, title: "Cross-organization target" })).id;
  const [owner] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, "owner@demo.local"));
  session.userId = owner!.id;
});

afterAll(async () => {
  await testDb.cleanup();
});

function isNavigation(error: unknown): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === "string" && (digest.startsWith("NEXT_REDIRECT") || digest.startsWith("NEXT_HTTP_ERROR_FALLBACK"));
}

describe("console server actions with arbitrary FormData", () => {
  it.each(["signer@demo.local", "manager@other.local", "org-admin@other.local"])(
    "%s posting the console's forms with organization A's ids gets an error for every one of them",
    async (email) => {
      const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, email));
      const previous = session.userId;
      session.userId = user!.id;
      try {
        const demo = await getDemoPackage(testDb.db);
        const a = {
          signingId: targetDraftId,
          documentId: demo.document.id,
          organizationId: String(world.austin.organizationId),
          companyId: String(world.austin.companyId),
          locationId: String(world.austin.id),
        };
        // Each form names organization A's records with just the fields its action takes (strict
        // schemas refuse extra keys before any check of scope), then everything at once.
        const forms: Record<string, string>[] = [
          { signingId: demo.id },
          { signingId: targetDraftId },
          { signingId: demo.id, reason: "because" },
          { signingId: a.signingId, documentId: a.documentId, fields: "[]" },
          { signingId: demo.id, documentId: a.documentId, fields: "[]" },
          { templateId, documentId: a.documentId, fields: "[]" },
          { templateId, csv: "name,email\nA,a@example.test", intent: "send" },
          { organizationId: a.organizationId, name: "Pwned" },
          { organizationId: a.organizationId, name: "Pwned", steps: "sign" },
          { companyId: a.companyId, name: "Pwned" },
          { organizationId: a.organizationId, email: "friend@example.test", role: "org_admin" },
          { membershipId: demo.signers[0]!.id, role: "org_admin" },
          { signingId: a.signingId, locationId: a.locationId, title: "Pwned", "signers.0.name": "X", "signers.0.email": "x@example.test" },
          { locationId: a.locationId, title: "Pwned", "signers.0.name": "X", "signers.0.email": "x@example.test", intent: "send" },
          { organizationId: a.organizationId, name: "Pwned", timezone: "America/Chicago" },
          { place: `location:${a.locationId}`, type: "certificate_of_title", title: "Pwned" },
          // In the attacker's own location, but linked to organization A's package.
          { place: `location:${world.tulsa.id}`, type: "certificate_of_title", title: "Pwned", signingPackageId: demo.id },
          { ...a, templateId, fields: "[]", title: "Pwned", name: "Pwned", body: "hello", reason: "because", steps: "sign", intent: "send" },
        ];
        for (const [name, action] of Object.entries(actions)) {
          // Creating a new organization names none of organization A's records (and org admins may).
          if (typeof action !== "function" || name === "createOrganizationAction") continue;
          for (const fields of forms) {
            const formData = new FormData();
            for (const [key, v] of Object.entries(fields)) formData.set(key, v);
            const request = new Request("http://localhost:3000/signings", { method: "POST" });
            const result = await inNextRequestScope(request, () => action({ status: "idle" }, formData)).catch((error: unknown) => error);
            expect(result, `${name} ${JSON.stringify(fields)}`).toMatchObject({ status: "error" });
          }
        }
      } finally {
        session.userId = previous;
      }
    },
  );

  it("left organization A's packages as they were", async () => {
    const demo = await getDemoPackage(testDb.db);
    const [target] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, targetDraftId));
    expect(target).toMatchObject({ status: "draft", title: "Cross-organization target" });
    const [sent] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, demo.id));
    expect(sent!.status).toBe("sent");
  });

  it("answer form state or a redirect, never an exception", async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.constantFrom(...ids, String(world.austin.id), String(world.tulsa.id), String(world.austin.organizationId), "send", "preview", "template", "remove:0", "add-signer"),
      fc.constantFrom("[]", "{}", "null", '[{"type":"signature","page":1,"x":0,"y":0,"width":1,"height":1}]', "1e309", "-1", "9".repeat(400)),
      fc.json({ maxDepth: 2 }),
    );
    const form = fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 12 });
    for (const [name, action] of Object.entries(actions)) {
      if (typeof action !== "function") continue;
      await fc.assert(
        fc.asyncProperty(form, async (fields) => {
          const formData = new FormData();
          for (const [key, v] of Object.entries(fields)) formData.set(key, v);
          const request = new Request("http://localhost:3000/signings", { method: "POST" });
          try {
            const result = await inNextRequestScope(request, () => action({ status: "idle" }, formData));
            expect(["idle", "ok", "error"], name).toContain((result as { status: string }).status);
          } catch (error) {
            if (isNavigation(error)) return;
            throw new Error(`${name}(${JSON.stringify(fields).slice(0, 300)}) threw: ${String(error).slice(0, 300)}`);
          }
        }),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
      );
    }
  });

});
