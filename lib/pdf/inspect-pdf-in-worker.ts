import { dirname } from "node:path";
import { Worker } from "node:worker_threads";
import { AppError, BadRequest } from "@/lib/errors";
import { PDF_WORKER_SOURCE } from "./pdf-worker-source";

/** Every stream of an uploaded PDF together may inflate to at most this. */
export const MAX_INFLATED_BYTES = 256 * 1024 * 1024;
/** Object and cross-reference streams (inflated into memory by pdf-lib on load) together may inflate to at most this. */
export const MAX_STRUCTURE_BYTES = 32 * 1024 * 1024;
/** A parse that takes longer is stopped (the worker is terminated) and the file refused. */
export const PDF_PARSE_TIMEOUT_MS = 5_000;
/** Parses run at most this many at once, each in its own worker; the rest wait in a short queue. */
const POOL_SIZE = 2;
const MAX_QUEUED = 16;
/** The worker's V8 heap cap; pdf-lib's object graph for a 10 MiB PDF stays well under it. */
const WORKER_HEAP_MB = 192;

export type PdfInspection = { pageCount: number | null; inflatedBytes: number };

type Job = {
  bytes: Uint8Array;
  loadDocument: boolean;
  timeoutMs: number;
  resolve: (value: PdfInspection) => void;
  reject: (error: unknown) => void;
};

type Slot = { worker: Worker; busy: boolean };

type WorkerReply = { id: number; ok: true; pageCount: number | null; inflatedBytes: number } | { id: number; ok: false; reason: "inflate_limit" | "encrypted" | "unreadable"; message: string };

const tooLarge = () =>
  new AppError(
    "payload_too_large",
    `The PDF's compressed streams expand to more than ${MAX_INFLATED_BYTES / 1024 / 1024} MiB (or its object streams to more than ${MAX_STRUCTURE_BYTES / 1024 / 1024} MiB); it is refused.`,
  );

/** The error a worker's refusal becomes. */
function refusal(reason: "inflate_limit" | "encrypted" | "unreadable") {
  if (reason === "inflate_limit") return tooLarge();
  if (reason === "encrypted") return BadRequest("The PDF is encrypted (password-protected); upload a copy without a password or restrictions.");
  return BadRequest("The uploaded file is not a readable PDF.");
}

type Pool = { slots: Slot[]; queue: Job[]; nextId: number };
// One pool per process, however many module graphs Next bundles this file into.
const globalPool = globalThis as typeof globalThis & { __closingSigningPdfPool?: Pool };
const pool: Pool = (globalPool.__closingSigningPdfPool ??= { slots: [], queue: [], nextId: 1 });

function spawn(): Slot {
  const worker = new Worker(PDF_WORKER_SOURCE, {
    eval: true,
    workerData: { searchFrom: [process.cwd(), ...(process.argv[1] ? [dirname(process.argv[1])] : [])] },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    stdout: false,
    stderr: false,
  });
  // An idle worker must not keep the process (a test run, a CLI) alive.
  worker.unref();
  const slot: Slot = { worker, busy: false };
  // A worker that dies while idle leaves the pool; without an "error" listener its death would throw here.
  worker.on("error", () => {});
  worker.on("exit", () => {
    const index = pool.slots.indexOf(slot);
    if (index >= 0) pool.slots.splice(index, 1);
  });
  return slot;
}

function run(slot: Slot, job: Job): void {
  slot.busy = true;
  const id = pool.nextId++;
  const { worker } = slot;
  let settled = false;
  const finish = (outcome: () => void, replace: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    worker.off("message", onMessage);
    worker.off("error", onError);
    worker.off("exit", onExit);
    if (replace) {
      const index = pool.slots.indexOf(slot);
      if (index >= 0) pool.slots.splice(index, 1);
      void worker.terminate();
    } else {
      slot.busy = false;
      worker.unref();
    }
    outcome();
    drain();
  };
  const onMessage = (reply: WorkerReply) => {
    if (reply.id !== id) return;
    if (reply.ok) finish(() => job.resolve({ pageCount: reply.pageCount, inflatedBytes: reply.inflatedBytes }), false);
    else finish(() => job.reject(refusal(reply.reason)), false);
  };
  // Out of heap (resourceLimits) or any crash: the worker is gone; the file is what broke it.
  const onError = () => finish(() => job.reject(BadRequest("The uploaded PDF is too complex to read.")), true);
  const onExit = () => finish(() => job.reject(BadRequest("The uploaded PDF is too complex to read.")), true);
  const timer = setTimeout(
    () => finish(() => job.reject(BadRequest(`The uploaded PDF could not be read within ${job.timeoutMs / 1000} seconds.`)), true),
    job.timeoutMs,
  );
  worker.on("message", onMessage);
  worker.on("error", onError);
  worker.on("exit", onExit);
  worker.ref();
  // A copy is sent: the caller keeps its bytes to store them.
  worker.postMessage({ id, bytes: job.bytes, loadDocument: job.loadDocument, limits: { totalBytes: MAX_INFLATED_BYTES, structureBytes: MAX_STRUCTURE_BYTES } });
}

function drain(): void {
  while (pool.queue.length > 0) {
    let slot = pool.slots.find((s) => !s.busy);
    if (!slot && pool.slots.length < POOL_SIZE) {
      slot = spawn();
      pool.slots.push(slot);
    }
    if (!slot) return;
    run(slot, pool.queue.shift()!);
  }
}

/**
 * Inspects untrusted PDF bytes off the request thread, in a `worker_threads` worker with a heap cap
 * and a time limit: refuses (413) a file whose streams inflate past the bounds above, (400) one that
 * is unreadable, too complex or too slow, and (503) when too many parses are already waiting. With
 * `loadDocument` it also loads the file with pdf-lib and counts its pages.
 */
export function inspectPdfInWorker(bytes: Uint8Array, options: { loadDocument: boolean; timeoutMs?: number }): Promise<PdfInspection> {
  if (pool.queue.length >= MAX_QUEUED) {
    return Promise.reject(new AppError("unavailable", "Too many PDF uploads are being checked; try again shortly.", { "Retry-After": "5" }));
  }
  return new Promise<PdfInspection>((resolve, reject) => {
    pool.queue.push({ bytes, loadDocument: options.loadDocument, timeoutMs: options.timeoutMs ?? PDF_PARSE_TIMEOUT_MS, resolve, reject });
    drain();
  });
}

/** Stops the pool's workers (tests, shutdown). */
export async function closePdfWorkers(): Promise<void> {
  const slots = pool.slots.splice(0);
  await Promise.all(slots.map((s) => s.worker.terminate()));
}
