import { NextResponse } from "next/server";
import { endHostSession } from "@/app/_lib/end-host-session";
import { requestEvidence } from "@/app/_lib/request-evidence";
import { prepareDatabase } from "@/lib/boot";
import { openInPersonUrl } from "@/lib/in-person/in-person-url";
import { setLinkSessionCookie } from "@/lib/next/link-sessions";

/**
 * `GET /in-person/<token>`, the URL an integrator's desk app opens on the device at the desk (issued
 * by `/v1`, single use, five minutes). Opening it starts the signer's in-person session as the
 * console's hand-over does: the signer's cookie for that package, whoever was signed in on this
 * browser signed out (`endHostSession`), and the signer's package page with its "Hand the device
 * back" banner. A token used before, expired, unknown, for a closed package or from a host who can no
 * longer host it goes to `/in-person/refused`, and nothing changes; so does a request that is not a
 * browser opening the page (a link preview or a scanner), without spending the token.
 */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const { token } = await params;
  // Only a browser opening the page spends the token: a link preview, a scanner or a prefetch (no
  // `Sec-Fetch-Mode: navigate` to a document) is turned away and the link still opens afterwards.
  if (request.headers.get("sec-fetch-mode") !== "navigate" || request.headers.get("sec-fetch-dest") !== "document") {
    return seeOther("/in-person/refused?reason=browser");
  }
  const { db } = await prepareDatabase();
  const result = await openInPersonUrl(db, { token: token.slice(0, 100), ...(await requestEvidence()) });
  if (result.state === "opened") {
    await setLinkSessionCookie("signer", result.packageId, result.sessionValue);
    await endHostSession();
    return seeOther(`/signings/${result.packageId}`);
  }
  return seeOther(`/in-person/refused?reason=${result.reason}`);
}

function seeOther(location: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { Location: location, "Cache-Control": "no-store" } });
}
