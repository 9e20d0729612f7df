import type { Metadata } from "next";
import { previewSavedBranding } from "@/lib/workspace/preview-branding";
import { listFlows } from "@/lib/flows/list-flows";
import { getWorkspaceSettings } from "@/lib/workspace/get-workspace-settings";
import { loadWorkspace } from "../_components/load-workspace";
import { NotAnAdmin, WorkspaceHeader } from "../_components/workspace-header";
import { getFramingOrigins } from "@/lib/embedded/allowed-origins";
import { EmbedOriginsForm } from "./_components/embed-origins-form";
import { LogoForm } from "./_components/logo-form";
import { SettingsForm } from "./_components/settings-form";

export const metadata: Metadata = { title: "Workspace settings" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The organization's name, branding and defaults, for its admins. */
export default async function SettingsPage({ searchParams }: Props) {
  const { db, principal, organization, organizations } = await loadWorkspace("settings", "settings:read", await searchParams);
  if (!organization) return <NotAnAdmin what="the workspace's settings" />;
  const [settings, flows, preview, embedOrigins] = await Promise.all([
    getWorkspaceSettings(db, { principal, organizationId: organization.id }),
    listFlows(db, { principal, organizationId: organization.id, limit: 100 }),
    previewSavedBranding(db, { principal, organizationId: organization.id }),
    getFramingOrigins(db, organization.id),
  ]);
  return (
    <>
      <WorkspaceHeader tab="settings" organization={{ ...organization, name: settings.name }} organizations={organizations} />
      <div className="mb-6 max-w-2xl">
        <LogoForm organizationId={organization.id} logo={settings.branding.logo} />
      </div>
      <SettingsForm
        organizationId={organization.id}
        preview={preview}
        flows={flows.rows.map((f) => ({ id: f.id, name: f.name }))}
        initial={{
          name: settings.name,
          logoUrl: settings.branding.logoUrl ?? "",
          brandColor: settings.branding.brandColor ?? "",
          displayName: settings.branding.displayName ?? "",
          supportEmail: settings.branding.supportEmail ?? "",
          supportPhone: settings.branding.supportPhone ?? "",
          footer: settings.branding.footer ?? "",
          defaultFlowId: settings.defaultFlowId ?? "",
          defaultLanguage: settings.defaultLanguage,
          reminderCadenceDays: settings.reminderCadenceDays?.toString() ?? "",
          packageExpiryDays: settings.packageExpiryDays?.toString() ?? "",
        }}
      />
      <div className="mt-6 max-w-2xl">
        <EmbedOriginsForm organizationId={organization.id} origins={embedOrigins} />
      </div>
    </>
  );
}
