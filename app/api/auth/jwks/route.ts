// GET /.well-known/jwks.json – public keys of the local identity provider.
import { getJwks } from "@/lib/auth/local-keys";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json(getJwks(), { headers: { "Cache-Control": "public, max-age=300" } });
}
