import type { Metadata } from "next";
import { ManagerSigningDetail } from "@/app/(manager)/signings/_detail/manager-signing-detail";
import { SignerPackageView } from "@/app/(signer)/signings/[id]/_components/signer-package-view";
import { requestEvidence } from "@/app/_lib/request-evidence";
import { resolvePackageRoute } from "./resolve-package-route";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function routeOf({ params, searchParams }: Props) {
  const { id } = await params;
  const query = await searchParams;
  const one = (value: string | string[] | undefined) => (typeof value === "string" ? value : undefined);
  // The signer's first view of the package is recorded with the client IP, by the same rule as /v1.
  const { ipAddress } = await requestEvidence();
  return { id, route: await resolvePackageRoute(id, one(query.view), one(query.audit), ipAddress) };
}

export async function generateMetadata(props: Props): Promise<Metadata> {
  const { route } = await routeOf(props);
  return { title: route.kind === "signer" ? route.page.view.title : `${route.page.detail.title} · Package` };
}

/**
 * `/signings/<id>`, the link in every email about a package, belongs to neither the signer's nor the
 * manager's area: it serves both. `resolvePackageRoute` decides who is asking; this page hands the
 * package to the signer's view (`app/(signer)`) or the manager's view (`app/(manager)`). The other
 * pages under `/signings/<id>/` belong to one side each (`done`, `bank` to the signer; `edit`,
 * `fields` to the manager).
 */
export default async function PackagePage(props: Props) {
  const { id, route } = await routeOf(props);
  if (route.kind === "manager") {
    return <ManagerSigningDetail page={route.page} now={new Date()} manageHref={route.manageHref} signerViewHref={route.signerViewHref} />;
  }
  return <SignerPackageView id={id} page={route.page} showManageLink={route.manageHref !== null} />;
}
