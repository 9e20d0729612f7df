"use client";

import { useTranslations } from "next-intl";
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import SignaturePad, { type PointGroup } from "signature_pad";
import { MAX_SIGNATURE_IMAGE_BYTES } from "@/lib/signature-images/signature-image-limit";
import { focusRing } from "@/components/ui/classes";

export type DrawPadHandle = {
  /** The drawing as a trimmed PNG data: URL, or why it cannot be used (a key of the `adopt` catalog namespace). */
  exportPng: () => { ok: true; imageDataUrl: string } | { ok: false; reason: "drawFirst" | "tooSmall" | "tooDetailed" };
};

const PEN = { penColor: "#0b1f4d", minWidth: 0.8, maxWidth: 2.6 } as const;
/** Below this a drawing is a dot or a slip, not a signature. */
const MIN_POINTS = 10;
const MIN_EXTENT_PX = 40;
const EXPORT_MARGIN_PX = 6;

function bounds(groups: PointGroup[]) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let count = 0;
  for (const group of groups) {
    for (const p of group.points) {
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
      maxX = Math.max(maxX, p.x);
      maxY = Math.max(maxY, p.y);
      count++;
    }
  }
  return { minX, minY, width: maxX - minX, height: maxY - minY, count };
}

/** Renders the strokes again on a canvas cut to their bounds, at `scale` pixels per CSS pixel. */
function renderTrimmed(groups: PointGroup[], scale: number): string {
  const box = bounds(groups);
  const canvas = document.createElement("canvas");
  canvas.width = Math.ceil((box.width + 2 * EXPORT_MARGIN_PX) * scale);
  canvas.height = Math.ceil((box.height + 2 * EXPORT_MARGIN_PX) * scale);
  const pad = new SignaturePad(canvas, PEN);
  pad.off();
  canvas.getContext("2d")!.scale(scale, scale);
  const dx = EXPORT_MARGIN_PX - box.minX;
  const dy = EXPORT_MARGIN_PX - box.minY;
  pad.fromData(
    groups.map((g) => ({ ...g, points: g.points.map((p) => ({ ...p, x: p.x + dx, y: p.y + dy })) })),
    { clear: false },
  );
  return canvas.toDataURL("image/png");
}

const decodedBytes = (dataUrl: string) => Math.floor(((dataUrl.length - dataUrl.indexOf(",") - 1) * 3) / 4);

/**
 * A signature_pad canvas sized to its box at the device pixel ratio. Strokes are kept (scaled) when
 * the box changes size, e.g. a phone turning; Undo removes the last stroke, Clear all of them.
 */
export function SignatureDrawPad({ ref, describedBy }: { ref: Ref<DrawPadHandle>; describedBy: string }) {
  const t = useTranslations("adopt");
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const [strokes, setStrokes] = useState(0);

  useEffect(() => {
    const canvas = canvasRef.current!;
    const pad = new SignaturePad(canvas, PEN);
    padRef.current = pad;
    const onEnd = () => setStrokes(pad.toData().length);
    pad.addEventListener("endStroke", onEnd);
    let cssWidth = 0;
    const fit = () => {
      const width = canvas.offsetWidth;
      const height = canvas.offsetHeight;
      if (width === 0 || width === cssWidth) return;
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      const factor = cssWidth ? width / cssWidth : 1;
      const data = pad.toData().map((g) => ({ ...g, points: g.points.map((p) => ({ ...p, x: p.x * factor, y: p.y * factor })) }));
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      canvas.getContext("2d")!.scale(ratio, ratio);
      pad.clear();
      if (data.length) pad.fromData(data);
      cssWidth = width;
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(canvas);
    return () => {
      observer.disconnect();
      pad.removeEventListener("endStroke", onEnd);
      pad.off();
      padRef.current = null;
    };
  }, []);

  useImperativeHandle(ref, () => ({
    exportPng() {
      const groups = padRef.current?.toData() ?? [];
      const box = bounds(groups);
      if (groups.length === 0) return { ok: false, reason: "drawFirst" };
      if (box.count < MIN_POINTS || Math.hypot(box.width, box.height) < MIN_EXTENT_PX) {
        return { ok: false, reason: "tooSmall" };
      }
      for (const scale of [Math.min(Math.max(window.devicePixelRatio || 1, 1), 2), 1]) {
        const imageDataUrl = renderTrimmed(groups, scale);
        if (decodedBytes(imageDataUrl) <= MAX_SIGNATURE_IMAGE_BYTES) return { ok: true, imageDataUrl };
      }
      return { ok: false, reason: "tooDetailed" };
    },
  }));

  function undo() {
    const pad = padRef.current;
    if (!pad) return;
    const data = pad.toData();
    data.pop();
    pad.clear();
    if (data.length) pad.fromData(data);
    setStrokes(data.length);
  }

  function clear() {
    padRef.current?.clear();
    setStrokes(0);
  }

  const buttonClass =
    `min-h-11 rounded-md border border-slate-400 bg-white px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-100 ${focusRing} disabled:cursor-not-allowed disabled:opacity-50`;
  return (
    <div className="space-y-2">
      <canvas
        ref={canvasRef}
        role="img"
        aria-label={t("canvas", { count: strokes })}
        aria-describedby={describedBy}
        data-testid="signature-canvas"
        className="block aspect-[5/2] w-full touch-none rounded-md border-2 border-dashed border-slate-400 bg-white"
      />
      <div className="flex gap-2">
        <button type="button" onClick={undo} disabled={strokes === 0} className={buttonClass}>
          {t("undo")}
        </button>
        <button type="button" onClick={clear} disabled={strokes === 0} className={buttonClass}>
          {t("clear")}
        </button>
      </div>
    </div>
  );
}
