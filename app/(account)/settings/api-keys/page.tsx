import type { Metadata } from "next";
import { StatusBadge } from "@/components/status-badge";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { requirePrincipal } from "../../../_lib/require-principal";
import { revokeApiKeyAction } from "./actions";
import { CreateApiKeyForm } from "./create-api-key-form";
import { formatDate } from "@/lib/format";

export const metadata: Metadata = { title: "API keys" };


export default async function ApiKeysPage() {
  const { db, principal } = await requirePrincipal("/settings/api-keys");
  const keys = await listApiKeys(db, { userId: principal.user.id });

  return (
    <div className="space-y-8">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">API keys</h1>
        <p className="max-w-2xl text-sm text-slate-700">
          Scripts exchange a personal API key for a short-lived access token at the start of each run:{" "}
          <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs">POST /api/auth/token</code> with{" "}
          <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs">{'{ "apiKey": "csk_…" }'}</code>, then call{" "}
          <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs">/v1</code> with{" "}
          <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs">Authorization: Bearer &lt;token&gt;</code>. A key
          acts as you, with your roles.
        </p>
      </div>

      <section aria-labelledby="create-key-heading" className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="create-key-heading" className="text-lg font-semibold text-slate-900">
          Create a key
        </h2>
        <CreateApiKeyForm />
      </section>

      <section aria-labelledby="keys-heading" className="space-y-3">
        <h2 id="keys-heading" className="text-lg font-semibold text-slate-900">
          Your keys
        </h2>
        {keys.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">You have no API keys yet.</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table className="min-w-full divide-y divide-slate-200 text-left text-sm" data-testid="api-keys">
              <caption className="sr-only">Your API keys</caption>
              <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-700">
                <tr>
                  <th scope="col" className="px-4 py-3">Name</th>
                  <th scope="col" className="px-4 py-3">Key</th>
                  <th scope="col" className="px-4 py-3">State</th>
                  <th scope="col" className="px-4 py-3">Created</th>
                  <th scope="col" className="px-4 py-3">Last used</th>
                  <th scope="col" className="px-4 py-3">Expires</th>
                  <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {keys.map((key) => (
                  <tr key={key.id}>
                    <th scope="row" className="px-4 py-3 font-medium text-slate-900">{key.name}</th>
                    <td className="px-4 py-3 font-mono text-xs text-slate-700">{key.prefix}…</td>
                    <td className="px-4 py-3"><StatusBadge status={key.state} /></td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700">{formatDate(key.createdAt)}</td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700">{key.lastUsedAt ? formatDate(key.lastUsedAt) : "Never"}</td>
                    <td className="whitespace-nowrap px-4 py-3 text-slate-700">{key.expiresAt ? formatDate(key.expiresAt) : "Never"}</td>
                    <td className="px-4 py-3 text-right">
                      {key.state === "revoked" ? null : (
                        <form action={revokeApiKeyAction}>
                          <input type="hidden" name="apiKeyId" value={key.id} />
                          <button
                            type="submit"
                            aria-label={`Revoke ${key.name}`}
                            className="rounded-md border border-red-300 px-3 py-1.5 text-sm font-medium text-red-800 hover:bg-red-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
                          >
                            Revoke
                          </button>
                        </form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
