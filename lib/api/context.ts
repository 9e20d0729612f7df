import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";

/**
 * What every `/v1` handler reads from the Hono context, set once per request by the `/v1/*`
 * middleware in `app.ts`: the database, the caller's evidence IP (for audit entries and signature
 * evidence; null when unknown) and the authenticated principal.
 */
export type ApiEnv = {
  Variables: {
    db: Db;
    ipAddress: string | null;
    principal: Principal;
  };
};
