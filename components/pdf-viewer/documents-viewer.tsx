"use client";

// Placeholder with the agreed props; the viewer teammate's PDF.js viewer replaces this file at merge.
export type ViewerDocument = { id: string; name: string; pageCount: number | null; fileUrl: string; downloadUrl: string; status?: string };

export function DocumentsViewer({ documents }: { documents: ViewerDocument[]; initialDocumentId?: string }) {
  return (
    <ul aria-label="Documents" className="space-y-3">
      {documents.map((d) => (
        <li key={d.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <p className="font-medium text-slate-900">{d.name}</p>
          <p className="text-sm text-slate-700">
            {d.pageCount ? `${d.pageCount} pages` : null} {d.status ? `· ${d.status}` : null}
          </p>
          <p className="mt-2 flex gap-4 text-sm">
            <a className="font-medium text-blue-800 underline" href={d.fileUrl}>
              Open {d.name}
            </a>
            <a className="font-medium text-blue-800 underline" href={d.downloadUrl}>
              Download {d.name}
            </a>
          </p>
        </li>
      ))}
    </ul>
  );
}
