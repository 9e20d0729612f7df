import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { companies, flows, locations, organizations, templateDocuments, templates, users } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { addTemplateDocument } from "@/lib/templates/add-template-document";
import { createTemplate } from "@/lib/templates/create-template";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";

// The console's edit and delete actions take the record's id as a bound argument
// (`action.bind(null, id)`). A bound argument is sent by the browser with the form, in the clear, so
// it is as untrusted as a form field: a tampered value (wrong type, not an id, another
// organization's id) must give the form an error, change nothing, and never become a 500.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId, name: "", email: "" } } : null),
}));
vi.mock("next/cache", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next/cache")>()),
  revalidatePath: () => undefined,
}));

const places = await import("@/app/(manager)/places/actions");
const flowActions = await import("@/app/(manager)/flows/actions");
const templateActions = await import("@/app/(manager)/templates/actions");

let testDb: TestDb;
let world: DemoWorld;
let templateId: string;
let templateDocumentId: string;
let flowId: string;

type Action = (previous: { status: "idle" }, formData: FormData) => Promise<unknown>;

async function signInAs(email: string) {
  const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  session.userId = user!.id;
}

function post(action: Action, fields: Record<string, string | File> = {}): Promise<unknown> {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  const request = new Request("http://localhost:3000/places", { method: "POST" });
  return inNextRequestScope(request, () => action({ status: "idle" }, formData));
}

/** What the console's data looks like, to show nothing changed. */
async function snapshot() {
  return {
    organizations: await testDb.db.select().from(organizations).orderBy(organizations.id),
    companies: await testDb.db.select().from(companies).orderBy(companies.id),
    locations: await testDb.db.select().from(locations).orderBy(locations.id),
    flows: await testDb.db.select().from(flows).orderBy(flows.id),
    templates: await testDb.db.select().from(templates).orderBy(templates.id),
    templateDocuments: await testDb.db.select({ id: templateDocuments.id }).from(templateDocuments).orderBy(templateDocuments.id),
  };
}

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  // An organization admin of the other organization: the attacker of the tenancy cases.
  await createUser(testDb.db, "org-admin@other.local", [{ role: "org_admin", organizationId: world.tulsa.organizationId }]);
  const owner = await resolvePrincipal(testDb.db, localSubjectForEmail("owner@demo.local"));
  const template = await createTemplate(testDb.db, {
    principal: owner,
    organizationId: world.austin.organizationId,
    name: "Bound id template",
    roles: [{ key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 }],
  });
  templateId = template.id;
  const document = await addTemplateDocument(testDb.db, {
    principal: owner,
    templateId,
    name: "Contract.pdf",
    bytes: await renderAgreementPdf({ title: "Contract", parties: ["Buyer"], pages: 1 }),
  });
  templateDocumentId = (document as { id: string }).id;
  const [flow] = await testDb.db.select().from(flows).where(eq(flows.organizationId, world.austin.organizationId));
  flowId = flow!.id;
});

afterAll(async () => {
  await testDb.cleanup();
});

beforeEach(() => {
  session.userId = null;
});

// Values a tampered request can carry in place of an id (React's action encoding carries any of them).
const TAMPERED: unknown[] = ["abc", "1 OR 1=1", "", -1, 0, 1.5, 2 ** 40, Number.NaN, "9".repeat(5000), null, {}, ["1"], true];

function expectFormError(result: unknown) {
  expect(result).toMatchObject({ status: "error" });
  expect(typeof (result as { message: unknown }).message).toBe("string");
}

describe("bound ids of the console's edit and delete actions", () => {
  it("a tampered id (wrong type, not an id, out of range) is a form error and changes nothing", async () => {
    await signInAs("owner@demo.local");
    const before = await snapshot();
    const pdf = new File([new Uint8Array(await renderAgreementPdf({ title: "Upload", parties: ["Buyer"], pages: 1 }))], "Upload.pdf", { type: "application/pdf" });
    const calls: [string, (id: never) => Action, Record<string, string | File>][] = [
      ["updateOrganization", (id) => places.updateOrganizationAction.bind(null, id), { name: "Renamed" }],
      ["deleteOrganization", (id) => places.deleteOrganizationAction.bind(null, id), {}],
      ["updateCompany", (id) => places.updateCompanyAction.bind(null, id), { name: "Renamed" }],
      ["deleteCompany", (id) => places.deleteCompanyAction.bind(null, id, world.austin.organizationId), {}],
      ["updateLocation", (id) => places.updateLocationAction.bind(null, id), { name: "Renamed" }],
      ["deleteLocation", (id) => places.deleteLocationAction.bind(null, id, world.austin.companyId), {}],
      ["updateFlow", (id) => flowActions.updateFlowAction.bind(null, id), { name: "Renamed", steps: "sign" }],
      ["updateTemplate", (id) => templateActions.updateTemplateAction.bind(null, id), { name: "Renamed" }],
      ["uploadTemplateDocument", (id) => templateActions.uploadTemplateDocumentAction.bind(null, id), { file: pdf }],
      ["removeTemplateDocument (template id)", (id) => templateActions.removeTemplateDocumentAction.bind(null, id, templateDocumentId), {}],
      ["removeTemplateDocument (document id)", (id) => templateActions.removeTemplateDocumentAction.bind(null, templateId, id), {}],
    ];
    for (const [name, bind, fields] of calls) {
      for (const id of TAMPERED) {
        const result = await post(bind(id as never), fields).catch((error: unknown) => error);
        expect(result, `${name}(${JSON.stringify(id)?.slice(0, 40)})`).not.toBeInstanceOf(Error);
        expectFormError(result);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  it("another organization's ids are refused like missing ones: nothing of organization A changes", async () => {
    await signInAs("org-admin@other.local");
    const before = await snapshot();
    const calls: Action[] = [
      places.updateOrganizationAction.bind(null, world.austin.organizationId),
      places.deleteOrganizationAction.bind(null, world.austin.organizationId),
      places.updateCompanyAction.bind(null, world.austin.companyId),
      places.deleteCompanyAction.bind(null, world.austin.companyId, world.austin.organizationId),
      places.updateLocationAction.bind(null, world.austin.id),
      places.deleteLocationAction.bind(null, world.austin.id, world.austin.companyId),
      flowActions.updateFlowAction.bind(null, flowId),
      templateActions.updateTemplateAction.bind(null, templateId),
      templateActions.removeTemplateDocumentAction.bind(null, templateId, templateDocumentId),
    ];
    for (const action of calls) expectFormError(await post(action, { name: "Pwned", steps: "sign" }));
    expect(await snapshot()).toEqual(before);
  });
});
