import { NextResponse } from "next/server";
import { requestEvidence } from "@/app/_lib/request-evidence";
import { prepareDatabase } from "@/lib/boot";
import { openEmbeddedUrl } from "@/lib/embedded/embedded-url";
import { frameCookieName, sealFrameGrant } from "@/lib/embedded/frame-cookie";
import { framingParentOrigin } from "@/lib/embedded/framing-origins";
import { getEnv } from "@/lib/env";
import { SIGNER_SESSION_MAX_MS, signerSessionCookieName } from "@/lib/signer-access/rules";

/** The refusal page's grant lasts long enough to show it. */
const REFUSAL_GRANT_MS = 10 * 60_000;

/**
 * `GET /embed/<token>`, the URL an integrator puts in its iframe (issued by `/v1`, single use, five
 * minutes). Opening it starts the signer's session and goes to the package page, inside the frame;
 * a token used before, expired, unknown or for a closed package, or opened inside a page whose origin
 * the organization does not list, goes to `/embed/refused`, and nothing changes. Both cookies are
 * `SameSite=None; Secure; Partitioned`: sent inside the cross-site frame, kept in the parent site's
 * partition (lib/embedded/frame-cookie.ts).
 */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  const { db } = await prepareDatabase();
  const result = await openEmbeddedUrl(db, { token: token.slice(0, 100), framedBy: framingParentOrigin(request.headers), ...(await requestEvidence()) });
  const secureApp = new URL(getEnv().APP_URL).protocol === "https:";
  const cookie = { httpOnly: true, secure: true, sameSite: "none", partitioned: true, path: "/" } as const;
  if (result.state === "opened") {
    const response = seeOther(`/signings/${result.packageId}`);
    const maxAge = Math.floor(SIGNER_SESSION_MAX_MS / 1000);
    response.cookies.set(signerSessionCookieName(result.packageId, secureApp), result.sessionValue, { ...cookie, maxAge });
    response.cookies.set(frameCookieName(secureApp), sealFrameGrant({ packageId: result.packageId, origins: result.origins, expiresAt: result.expiresAt.getTime() }), { ...cookie, maxAge });
    return response;
  }
  const response = seeOther(`/embed/refused?reason=${result.reason}`);
  if (result.origins.length > 0) {
    const grant = sealFrameGrant({ packageId: null, origins: result.origins, expiresAt: Date.now() + REFUSAL_GRANT_MS });
    response.cookies.set(frameCookieName(secureApp), grant, { ...cookie, maxAge: REFUSAL_GRANT_MS / 1000 });
  }
  return response;
}

function seeOther(location: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}
