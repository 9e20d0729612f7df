import { notFound } from "next/navigation";
import { requirePrincipal } from "@/app/_lib/require-principal";
import type { Capability } from "@/lib/auth/capabilities";
import { hasCapability } from "@/lib/auth/principal";

/** A place's id from the URL: a positive 32-bit integer, or null (then the page is not found). */
export function placeId(raw: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : null;
}

/** What Next gives a place's page: the id segment and the query (`cursor`). */
export type PlacePageProps = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * The start of a place's page (`/places/<section>/<id>`): the signed-in viewer, the id from the URL
 * and the page's own path; not found for an id that is not one or a role without `capability`.
 */
export async function openPlacePage(params: PlacePageProps["params"], section: "organizations" | "companies" | "locations", capability: Capability) {
  const raw = (await params).id;
  const path = `/places/${section}/${raw}`;
  const { db, principal } = await requirePrincipal(path);
  const id = placeId(raw);
  if (id === null || !hasCapability(principal, capability)) notFound();
  return { db, principal, id, path };
}
