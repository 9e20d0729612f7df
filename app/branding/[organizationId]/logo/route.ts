// GET /branding/<organizationId>/logo – the organization's uploaded logo, from our origin, for signer
// pages, emails and the certificate. Public (a logo is shown to anyone holding an email); versioned
// by `?v=` so it can be cached for good.
import { readOrganizationLogo } from "@/lib/branding/organization-logo";
import { prepareDatabase } from "@/lib/boot";
import { NotFound } from "@/lib/errors";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

export const GET = routeHandler({ maxBodyBytes: 0 }, async ({ params }) => {
  const { organizationId } = await (params as { params: Promise<{ organizationId: string }> }).params;
  const id = /^[1-9][0-9]{0,9}$/.test(organizationId) ? Number(organizationId) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw NotFound("No such logo.");
  const found = await readOrganizationLogo((await prepareDatabase()).db, id);
  if (!found) throw NotFound("No such logo.");
  return new Response(Buffer.from(found.bytes), {
    headers: {
      "Content-Type": found.logo.contentType,
      "Content-Length": String(found.bytes.byteLength),
      "Cache-Control": "public, max-age=31536000, immutable",
      ETag: `"${found.logo.sha256.slice(0, 32)}"`,
      // An image, never a document: no sniffing, no script even if opened directly.
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      // Mail clients show it from their own origins.
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
});
