import { eq } from "drizzle-orm";
import { openDb, type Db } from "@/db/client";
import { locations, signingPackages, type SigningPackage } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { createSignerPackage, type FixturePackage, type FixtureSigner } from "../../helpers/signing-fixtures";
import { e2eDatabaseUrl } from "./fixtures";

/** Runs `fn` on the e2e server's database (PostgreSQL only: PGlite is held by the server). */
export async function withE2eDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const handle = await openDb({ url: e2eDatabaseUrl() }, { max: 1 });
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

/** A fresh package (sent unless `status` says otherwise) at the demo Austin Branch (its default flow: review → sign → link bank → done). */
export async function createE2ePackage(
  title: string,
  signers: FixtureSigner[],
  status?: SigningPackage["status"],
): Promise<FixturePackage & { title: string }> {
  const unique = `${title} ${Date.now().toString(36)}`;
  return withE2eDb(async (db) => {
    const [austin] = await db.select().from(locations).where(eq(locations.name, "Austin Branch"));
    return { ...(await createSignerPackage(db, { location: austin!, signers, title: unique, status })), title: unique };
  });
}

export async function updatePackage(id: string, values: Partial<SigningPackage>): Promise<void> {
  await withE2eDb((db) => db.update(signingPackages).set(values).where(eq(signingPackages.id, id)));
}

/** Records `email`'s typed e-signature on every document, through the domain function the API uses. */
export async function signEverything(email: string, pkg: FixturePackage): Promise<void> {
  await withE2eDb(async (db) => {
    const principal = await resolvePrincipal(db, localSubjectForEmail(email));
    for (const doc of pkg.documents) {
      await recordESignature(db, {
        principal,
        packageId: pkg.id,
        documentId: doc.id,
        signature: { kind: "typed", text: principal.user.name, font: "dancing-script" },
        consent: true,
        documentSha256: doc.sha256,
      });
    }
  });
}
