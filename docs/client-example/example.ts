// A typed client of the /v1 API: create a draft package with a signer and a PDF, send it, list the
// sent packages. The types come from the document the server serves; `npm run check:client-example`
// regenerates them (openapi-typescript) and typechecks this file against them, in CI.
//
//   npx tsx docs/client-example/example.ts http://localhost:3000 "$(npm run -s token -- manager@demo.local)"
import createClient from "openapi-fetch";
import type { paths } from "./api";

const [baseUrl = "http://localhost:3000", token = ""] = process.argv.slice(2);
const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });

// A one-page PDF, base64: replace with your own document's bytes.
const pdf = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n").toString("base64");

const created = await client.POST("/v1/signing/manager/signings", {
  body: {
    locationId: 1,
    title: "Retail installment contract — J. Doe",
    signers: [{ name: "Jordan Doe", email: "jordan@example.com" }],
    documents: [{ name: "Contract", contentBase64: pdf }],
  },
});
if (!created.data) throw new Error(`create failed (${created.response.status}): ${created.error?.error}`);
console.log("created", created.data.id, created.data.status);

const sent = await client.POST("/v1/signing/manager/signings/{id}/send", { params: { path: { id: created.data.id } } });
if (!sent.data) throw new Error(`send failed (${sent.response.status}): ${sent.error?.error}`);
console.log("sent", sent.data.id, sent.data.status);

const page = await client.GET("/v1/signing/manager/signings", { params: { query: { status: "sent", limit: 10 } } });
if (!page.data) throw new Error(`list failed (${page.response.status}): ${page.error?.error}`);
for (const signing of page.data.data) console.log(signing.id, signing.title, signing.status);

// The package's documents, with their SHA-256 (DocumentMetadataList).
const documents = await client.GET("/v1/signing/manager/signings/{id}/documents", { params: { path: { id: created.data.id } } });
for (const document of documents.data?.data ?? []) console.log(document.name, document.sha256);
