// GET /.well-known/jwks.json – public keys of the local identity provider.
import { getJwks } from "@/lib/auth/local-keys";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

export const GET = routeHandler({ maxBodyBytes: 0 }, () =>
  Response.json(getJwks(), { headers: { "Cache-Control": "public, max-age=300" } }),
);
