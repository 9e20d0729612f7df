import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { signingPackages, users } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { issueAccessLink } from "@/lib/signer-access/issue-access-link";
import { openAccessLink } from "@/lib/signer-access/open-access-link";
import { signerSessionCookieName } from "@/lib/signer-access/rules";
import { pngDataUrl } from "@/tests/helpers/signing-fixtures";
import { sendRaw } from "@/tests/helpers/raw-http";
import { createE2ePackage, withE2eDb } from "./support/signing-data";
import { expect, test } from "./support/fixtures";

/**
 * Issue 28's fourth look at hardening, against the suite's `next start`: what a client sends must
 * never answer 5xx or stall. Requests only, no page.
 */
const MiB = 1024 * 1024;

function target(baseURL: string | undefined): { host: string; port: number } {
  const url = new URL(baseURL!);
  return { host: url.hostname, port: Number(url.port) };
}

/** A bearer token for `email`, through an API key exchanged at /api/auth/token. */
async function bearerFor(baseURL: string, email: string): Promise<string> {
  const key = await withE2eDb(async (db) => {
    const [user] = await db.select().from(users).where(eq(users.email, email));
    return (await createApiKey(db, { userId: user!.id, name: "hardening-28" })).key;
  });
  const response = await fetch(`${baseURL}/api/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ apiKey: key }) });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** A server action's id, from the build's manifest (the suite's server runs this build). */
function actionIdOf(exportedName: string): string {
  const manifest = JSON.parse(readFileSync(join(process.cwd(), ".next/server/server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string }>;
  };
  const id = Object.entries(manifest.node).find(([, entry]) => entry.exportedName === exportedName)?.[0];
  expect(id, `no server action ${exportedName} in the build`).toBeDefined();
  return id!;
}

test.describe("issue 28: hardening", { tag: "@desktop" }, () => {
  test("a malformed multipart body to a server action is a 4xx, never a 5xx", async ({ baseURL }) => {
    const boundary = "----hardening28";
    const bodies: [string, string, string][] = [
      ["no boundary in the type", "multipart/form-data", `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\nx\r\n--${boundary}--\r\n`],
      ["a truncated part", `multipart/form-data; boundary=${boundary}`, `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\nx`],
      ["garbage", `multipart/form-data; boundary=${boundary}`, "this is not multipart at all"],
      ["a part without headers", `multipart/form-data; boundary=${boundary}`, `--${boundary}\r\n\r\n\r\nx\r\n--${boundary}--\r\n`],
    ];
    for (const [path, action] of [["/sign-in", actionIdOf("signInAction")], [`/access/${"A".repeat(43)}`, actionIdOf("openAccessLinkAction")]] as const) {
      for (const [name, type, body] of bodies) {
        const response = await fetch(`${baseURL}${path}`, { method: "POST", headers: { "content-type": type, "next-action": action, origin: baseURL!, accept: "text/x-component" }, body, redirect: "manual" });
        expect(response.status, `${path}: ${name}`).toBeGreaterThanOrEqual(300);
        expect(response.status, `${path}: ${name}`).toBeLessThan(500);
      }
    }
  });

  test("a signer's link session on the manager's closing page gets the sign-in page, not a 500", async ({ baseURL }) => {
    const pkg = await createE2ePackage("Hardening 28 closing", [{ email: "signer@demo.local" }]);
    const sessionValue = await withE2eDb(async (db) => {
      await db.update(signingPackages).set({ signerAuthMethod: "link" }).where(eq(signingPackages.id, pkg.id));
      const [signing] = await db.select().from(signingPackages).where(eq(signingPackages.id, pkg.id));
      const url = await issueAccessLink(db, { signing: signing!, signerId: pkg.signers[0]!.id });
      const opened = await openAccessLink(db, { token: url.split("/access/")[1]! });
      return opened!.sessionValue;
    });
    const cookie = `${signerSessionCookieName(pkg.id, false)}=${sessionValue}`;
    // The session is live: the signer's own package page takes it.
    expect((await fetch(`${baseURL}/signings/${pkg.id}`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);
    for (const path of ["closing", "edit", "fields"]) {
      const response = await fetch(`${baseURL}/signings/${pkg.id}/${path}`, { headers: { cookie }, redirect: "manual" });
      expect(response.status, path).toBe(307);
      expect(response.headers.get("location"), path).toContain("/sign-in");
    }
  });

  test("the logo route keeps its sandboxing Content-Security-Policy", async ({ baseURL }) => {
    const token = await bearerFor(baseURL!, "owner@demo.local");
    const png = Buffer.from(pngDataUrl(120, 40).split(",")[1]!, "base64");
    const uploaded = await fetch(`${baseURL}/v1/workspace/settings/logo`, { method: "PUT", headers: { authorization: `Bearer ${token}`, "content-type": "image/png" }, body: png });
    expect(uploaded.status).toBe(200);
    const { url } = (await uploaded.json()) as { url: string };
    const logo = await fetch(new URL(url, baseURL));
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect(logo.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
  });

  test("pages and server actions: a declared body over the cap is refused at once, a streamed one with a clean 413", async ({ baseURL }) => {
    const { host, port } = target(baseURL);
    for (const [path, declared] of [["/sign-in", 2 * MiB], [`/agent/closing/${"0".repeat(8)}-0000-7000-8000-000000000000`, 40 * MiB], ["/signings/new", 200 * MiB]] as const) {
      const outcome = await sendRaw(
        { host, port },
        `POST ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nOrigin: ${baseURL}\r\nNext-Action: ${"0".repeat(42)}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${declared}\r\n\r\n`,
        { chunked: false, limitBytes: declared },
      );
      expect(outcome.statusLine, path).toBe("HTTP/1.1 413 Payload Too Large");
      expect(outcome.sentBytes, path).toBeLessThan(16 * MiB);
    }
    const action = actionIdOf("signInAction");
    const streamed = await sendRaw(
      { host, port },
      `POST /sign-in HTTP/1.1\r\nHost: ${host}:${port}\r\nOrigin: ${baseURL}\r\nNext-Action: ${action}\r\nContent-Type: multipart/form-data; boundary=x\r\nTransfer-Encoding: chunked\r\n\r\n`,
      { chunked: true, limitBytes: 100 * MiB },
    );
    expect(streamed.statusLine).toBe("HTTP/1.1 413 Payload Too Large");
    expect(streamed.sentBytes).toBeLessThan(32 * MiB);
  });

  test("the 413 for a declared 200 MB upload to /v1 is read by a client still writing, 20 times in a row", async ({ baseURL }) => {
    test.setTimeout(120_000);
    const token = await bearerFor(baseURL!, "owner@demo.local");
    const { host, port } = target(baseURL);
    const chunk = Buffer.alloc(256 * 1024, 0x61);
    const once = () =>
      new Promise<string>((resolve) => {
        // Node's HTTP client, writing the body as fast as the socket takes it, as an SDK uploading a file does.
        const request = httpRequest({ host, port, method: "PUT", path: "/v1/workspace/settings/logo", headers: { authorization: `Bearer ${token}`, "content-type": "image/png", "content-length": 200 * MiB } });
        let written = 0;
        let done = false;
        const pump = () => {
          while (!done && written < 200 * MiB) {
            written += chunk.length;
            if (!request.write(chunk)) return void request.once("drain", pump);
          }
        };
        request.on("response", (response) => {
          done = true;
          let body = "";
          response.on("data", (data: Buffer) => (body += data.toString()));
          response.on("end", () => resolve(`${response.statusCode} ${body.includes("error") ? "json" : body.slice(0, 60)}`));
          response.on("error", (error) => resolve(`${response.statusCode} then ${error.message}`));
        });
        request.on("error", (error) => {
          if (!done) resolve(`no answer: ${error.message}`);
          done = true;
        });
        pump();
      });
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) outcomes.push(await once());
    expect(outcomes).toEqual(Array.from({ length: 20 }, () => "413 json"));
  });
});
