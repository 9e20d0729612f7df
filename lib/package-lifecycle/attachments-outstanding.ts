import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { attachmentRequests, signerAttachments } from "@/db/schema";

/**
 * What keeps a package's attachments from being done: required requests with no accepted file
 * (missing, waiting for review, or only rejected files), and files of any request still waiting for
 * review (a manager decides on every file the signer sent before the package is sealed). Both zero
 * means the attachments allow completion.
 */
export async function attachmentsOutstanding(db: Db, packageId: string): Promise<{ requiredMissing: number; pendingReview: number }> {
  const [row] = await db
    .select({
      requiredMissing: sql<number>`count(*) filter (where r.required and not exists (
        select 1 from ${signerAttachments} a where a.request_id = r.id and a.status = 'accepted'))::int`,
      pendingReview: sql<number>`(select count(*) from ${signerAttachments} p where p.package_id = ${packageId} and p.status = 'pending')::int`,
    })
    .from(sql`${attachmentRequests} r`)
    .where(sql`r.package_id = ${packageId}`);
  return { requiredMissing: Number(row?.requiredMissing ?? 0), pendingReview: Number(row?.pendingReview ?? 0) };
}
