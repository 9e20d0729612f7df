import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { packageSeals, sealedDocuments, users } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { setEnvForTests } from "@/lib/env";
import { isUntrustedMutation } from "@/lib/security/check-mutation-origin";
import { addTemplateDocument } from "@/lib/templates/add-template-document";
import { createTemplate } from "@/lib/templates/create-template";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { loadDemoWorld, type DemoWorld } from "@/tests/helpers/fixtures";
import { createSignerPackage, getDemoPackage } from "@/tests/helpers/signing-fixtures";
import { putObject } from "@/lib/storage/objects";

// The security review of the browser product's session routes (docs/security.md "Session routes"):
// a manager of another organization, a signer and a signed-out caller try every file route by
// changing ids; malformed ids never give a 500; files go out with safe headers. next-auth's session
// lookup is replaced by "this user id is signed in"; the rest is the real code on a real database.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId, name: "", email: "" } } : null),
}));

const { GET: getSigningFieldFile } = await import("@/app/(manager)/signings/[id]/fields/[docId]/file/route");
const { GET: getTemplateFieldFile } = await import("@/app/(manager)/templates/[id]/fields/[docId]/file/route");
const { GET: getSealed } = await import("@/app/(signer)/signings/[id]/sealed/[file]/route");
const { GET: getViewerFile } = await import("@/app/(signer)/signings/[id]/documents/[docId]/file/route");
const { GET: getDocumentFile } = await import("@/app/(manager)/documents/[id]/files/[fileId]/route");
const { POST: postDocumentFile } = await import("@/app/(manager)/documents/[id]/files/route");
const { GET: getCommentStream } = await import("@/app/(manager)/documents/[id]/comments/stream/route");

let testDb: TestDb;
let world: DemoWorld;
let demo: Awaited<ReturnType<typeof getDemoPackage>>;
let templateId: string;
let templateDocId: string;
let sealedPackage: { id: string; documentId: string; sealedBytes: Uint8Array };

async function signInAs(email: string | null) {
  if (!email) return void (session.userId = null);
  const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  session.userId = user!.id;
}

const signingFieldFile = (id: string, docId: string) =>
  getSigningFieldFile(new Request(`http://localhost/signings/x/fields/y/file`), { params: Promise.resolve({ id, docId }) });
const templateFieldFile = (id: string, docId: string) =>
  getTemplateFieldFile(new Request(`http://localhost/templates/x/fields/y/file`), { params: Promise.resolve({ id, docId }) });
const sealed = (id: string, file: string) => getSealed(new Request(`http://localhost/signings/x/sealed/y`), { params: Promise.resolve({ id, file }) });

beforeAll(async () => {
  setEnvForTests({ REALTIME_URL: "memory:" });
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  demo = await getDemoPackage(testDb.db);
  const manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
  const template = await createTemplate(testDb.db, {
    principal: manager,
    organizationId: world.austin.organizationId,
    name: "Review template",
    roles: [{ key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 }],
  });
  templateId = template.id;
  const doc = await addTemplateDocument(testDb.db, {
    principal: manager,
    templateId,
    name: "Template contract.pdf",
    bytes: await renderAgreementPdf({ title: "Template contract", parties: ["Buyer"], pages: 1 }),
  });
  templateDocId = (doc as { id: string }).id;

  // A completed package with a stored seal (the bytes need not be a real seal for the route's checks).
  const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "sealed-signer@demo.local" }], status: "completed" });
  const sealedBytes = await renderAgreementPdf({ title: "Sealed", parties: ["Buyer"], pages: 1 });
  const certificate = await renderAgreementPdf({ title: "Certificate", parties: ["Buyer"], pages: 1 });
  const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
  // Completion queued the seal (a pending row); the job's outcome is written here directly.
  const seal = { status: "sealed" as const, certificateStorageKey: (await putObject(testDb.db, { bytes: certificate, contentType: "application/pdf" })).storageKey, certificateSha256: sha(certificate), sealedAt: new Date() };
  await testDb.db
    .insert(packageSeals)
    .values({ packageId: pkg.id, ...seal })
    .onConflictDoUpdate({ target: packageSeals.packageId, set: seal });
  await testDb.db.insert(sealedDocuments).values({
    packageId: pkg.id,
    documentId: pkg.documents[0]!.id,
    storageKey: (await putObject(testDb.db, { bytes: sealedBytes, contentType: "application/pdf" })).storageKey,
    sizeBytes: sealedBytes.byteLength,
    sha256: sha(sealedBytes),
  });
  sealedPackage = { id: pkg.id, documentId: pkg.documents[0]!.id, sealedBytes };
});

afterAll(async () => {
  await testDb.cleanup();
});

beforeEach(() => {
  session.userId = null;
});

describe("field editor file routes (/signings|templates/:id/fields/:docId/file)", () => {
  it("serve the package's and template's own PDFs to their organization's manager, with safe headers", async () => {
    await signInAs("manager@demo.local");
    for (const res of [await signingFieldFile(demo.id, demo.document.id), await templateFieldFile(templateId, templateDocId)]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-disposition")).toMatch(/^inline; filename="[^"\r\n]+\.pdf"; filename\*=UTF-8''/);
      expect(res.headers.get("cache-control")).toBe("private, no-cache");
    }
  });

  it("answer 404 to a manager of another organization, and never the bytes to a signer or a signed-out caller", async () => {
    const cases = async () => [
      await signingFieldFile(demo.id, demo.document.id),
      await templateFieldFile(templateId, templateDocId),
      // The other resource's id in place of the own one: a document of one package through another package.
      await signingFieldFile(demo.draftId, demo.document.id),
    ];
    await signInAs("manager@other.local");
    for (const res of await cases()) {
      expect(res.status).toBe(404);
      expect(Object.keys((await res.json()) as object)).toEqual(["error"]);
    }
    await signInAs("signer@demo.local");
    for (const res of await cases()) expect([403, 404]).toContain(res.status);
    await signInAs(null);
    for (const res of await cases()) expect(res.status).toBe(401);
  });
});

describe("GET /signings/:id/sealed/:file (session)", () => {
  it("serves the sealed document, the certificate and the ZIP to the package's signer and manager as attachments", async () => {
    for (const email of ["sealed-signer@demo.local", "manager@demo.local"]) {
      await signInAs(email);
      const doc = await sealed(sealedPackage.id, sealedPackage.documentId);
      expect(doc.status, email).toBe(200);
      expect(Buffer.from(await doc.arrayBuffer()).equals(Buffer.from(sealedPackage.sealedBytes))).toBe(true);
      expect(doc.headers.get("content-type")).toBe("application/pdf");
      expect(doc.headers.get("content-disposition")).toMatch(/^attachment; filename="[^"\r\n/\\]+\(sealed\)\.pdf"/);
      expect(doc.headers.get("x-content-type-options")).toBe("nosniff");
      expect(doc.headers.get("cache-control")).toBe("private, no-store");
      expect((await sealed(sealedPackage.id, "certificate")).status).toBe(200);
      const zip = await sealed(sealedPackage.id, "all");
      expect(zip.headers.get("content-type")).toBe("application/zip");
    }
  });

  it("answers 404 to a manager of another organization and to a signer of another package, 401 signed out", async () => {
    for (const email of ["manager@other.local", "signer@demo.local"]) {
      await signInAs(email);
      for (const file of [sealedPackage.documentId, "certificate", "all"]) {
        const res = await sealed(sealedPackage.id, file);
        expect(res.status, `${email} ${file}`).toBe(404);
        expect(Object.keys((await res.json()) as object)).toEqual(["error"]);
      }
    }
    await signInAs(null);
    expect((await sealed(sealedPackage.id, "all")).status).toBe(401);
  });
});

describe("malformed ids on the session routes (fuzz)", () => {
  // Ids as an attacker types them: anything from empty to 4 KiB, unicode, path pieces, SQL, near-UUIDs.
  const junk = fc.oneof(
    fc.string({ maxLength: 4096 }),
    fc.string({ unit: "grapheme", maxLength: 64 }),
    fc.constantFrom("", "..", "../../etc/passwd", "%00", "' OR 1=1 --", "00000000-0000-0000-0000-000000000000", "null", "all", "certificate"),
    fc.uuid(),
  );
  const routes: [string, (a: string, b: string) => Promise<Response>][] = [
    ["signing field file", signingFieldFile],
    ["template field file", templateFieldFile],
    ["sealed", sealed],
    [
      "viewer file",
      (id, docId) => getViewerFile(new Request("http://localhost/signings/x/documents/y/file"), { params: Promise.resolve({ id, docId }) }),
    ],
    [
      "chattel file",
      (id, fileId) => getDocumentFile(new Request("http://localhost/documents/x/files/y"), { params: Promise.resolve({ id, fileId }) }),
    ],
    ["comment stream", (id) => getCommentStream(new Request("http://localhost/documents/x/comments/stream"), { params: Promise.resolve({ id }) })],
    [
      "upload",
      (id, text) =>
        postDocumentFile(
          new Request("http://localhost/documents/x/files", { method: "POST", body: text, headers: { "content-type": "text/plain" } }),
          { params: Promise.resolve({ id }) },
        ),
    ],
  ];

  it("answers a JSON 4xx (never a 500 or a file) for any id, signed in as a manager", async () => {
    await signInAs("manager@demo.local");
    for (const [name, call] of routes) {
      await fc.assert(
        fc.asyncProperty(junk, junk, async (a, b) => {
          const res = await call(a, b);
          if (res.status < 400 || res.status >= 500) throw new Error(`${name}(${JSON.stringify(a).slice(0, 80)}, ${JSON.stringify(b).slice(0, 80)}) → ${res.status}`);
          expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        }),
        { numRuns: 25 },
      );
    }
  });

  it("a multipart upload with a wrong or missing part, or a JSON body, is a 400 and stores nothing", async () => {
    await signInAs("manager@demo.local");
    const id = "00000000-0000-4000-8000-000000000000";
    const bodies: [BodyInit, Record<string, string>][] = [
      ['{"file":"x"}', { "content-type": "application/json" }],
      ["--b\r\nbroken", { "content-type": "multipart/form-data; boundary=b" }],
      [new FormData(), {}],
    ];
    for (const [body, headers] of bodies) {
      const res = await postDocumentFile(new Request("http://localhost/documents/x/files", { method: "POST", body, headers }), {
        params: Promise.resolve({ id }),
      });
      expect(res.status).toBe(400);
    }
  });
});

describe("POST /documents/:id/files body cap without a Content-Length", () => {
  it("refuses a chunked upload at the cap while it streams in (413), instead of buffering it or waiting for its end", async () => {
    await signInAs("manager@demo.local");
    const chunk = new Uint8Array(1024 * 1024).fill(65);
    let sent = 0;
    // A sender that declares no length, sends 12 MiB and then never finishes the body.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 12) return new Promise<void>(() => {});
        sent += 1;
        controller.enqueue(sent === 1 ? new TextEncoder().encode("--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n") : chunk);
      },
    });
    const request = new Request("http://localhost/documents/x/files", {
      method: "POST",
      body,
      headers: { "content-type": "multipart/form-data; boundary=b" },
      duplex: "half",
    } as RequestInit);
    const res = await Promise.race([
      postDocumentFile(request, { params: Promise.resolve({ id: "00000000-0000-4000-8000-000000000000" }) }),
      new Promise<"stalled">((resolve) => setTimeout(() => resolve("stalled"), 5000)),
    ]);
    expect(res).not.toBe("stalled");
    expect((res as Response).status).toBe(413);
  });
});

describe("cross-origin writes to the session routes outside /v1", () => {
  const appUrl = "http://localhost:3000";
  const post = (pathname: string, origin: string | null, extra: Record<string, string> = {}) =>
    isUntrustedMutation({
      method: "POST",
      pathname,
      url: `${appUrl}${pathname}`,
      appUrl,
      headers: new Headers({ ...(origin === null ? {} : { origin }), ...extra }),
    });

  it("the proxy refuses a foreign, null or missing Origin on the upload route and on server actions, and lets our own through", () => {
    for (const path of ["/documents/3f1c1d1e-0000-4000-8000-000000000000/files", "/signings/new", "/verify"]) {
      expect(post(path, "https://evil.example"), path).toBe(true);
      expect(post(path, "null"), path).toBe(true);
      expect(post(path, null), path).toBe(true);
      expect(post(path, appUrl), path).toBe(false);
    }
    // A server action posted to an /api path still has its Origin checked.
    expect(post("/api/documents/check", "https://evil.example", { "next-action": "abc" })).toBe(true);
  });
});
