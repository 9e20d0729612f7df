/** A signing secret shown the one time it exists in clear: selectable, with how to use it. */
export function SecretOnce({ secret }: { secret: string }) {
  return (
    <div className="space-y-1 rounded-md border border-amber-300 bg-amber-50 p-3">
      <p className="text-sm font-medium text-amber-900" id="signing-secret-label">
        Signing secret (shown once)
      </p>
      <input
        readOnly
        aria-labelledby="signing-secret-label"
        value={secret}
        className="w-full rounded border border-amber-300 bg-white px-2 py-1 font-mono text-sm text-slate-900"
        data-testid="signing-secret"
      />
      <p className="text-xs text-amber-900">Verify deliveries with it (Standard Webhooks: the `standardwebhooks` package; see the integrators&apos; guide).</p>
    </div>
  );
}
