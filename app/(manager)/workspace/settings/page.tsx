import type { Metadata } from "next";
import { listFlows } from "@/lib/flows/list-flows";
import { getWorkspaceSettings } from "@/lib/workspace/get-workspace-settings";
import { loadWorkspace } from "../_components/load-workspace";
import { NotAnAdmin, WorkspaceHeader } from "../_components/workspace-header";
import { SettingsForm } from "./_components/settings-form";

export const metadata: Metadata = { title: "Workspace settings" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The organization's name, branding and defaults, for its admins. */
export default async function SettingsPage({ searchParams }: Props) {
  const { db, principal, organization, organizations } = await loadWorkspace("settings", "settings:read", await searchParams);
  if (!organization) return <NotAnAdmin what="the workspace's settings" />;
  const [settings, flows] = await Promise.all([
    getWorkspaceSettings(db, { principal, organizationId: organization.id }),
    listFlows(db, { principal, organizationId: organization.id, limit: 100 }),
  ]);
  return (
    <>
      <WorkspaceHeader tab="settings" organization={{ ...organization, name: settings.name }} organizations={organizations} />
      <SettingsForm
        organizationId={organization.id}
        flows={flows.rows.map((f) => ({ id: f.id, name: f.name }))}
        initial={{
          name: settings.name,
          logoUrl: settings.branding.logoUrl ?? "",
          brandColor: settings.branding.brandColor ?? "",
          defaultFlowId: settings.defaultFlowId ?? "",
          reminderCadenceDays: settings.reminderCadenceDays?.toString() ?? "",
          packageExpiryDays: settings.packageExpiryDays?.toString() ?? "",
        }}
      />
    </>
  );
}
