import { useRef, type DragEvent, type KeyboardEvent, type PointerEvent } from "react";
import type { PageViewport } from "pdfjs-dist";
import { clampToPage, pageBoxOf, pdfRectToScreen, roundRect, screenPointToPdf, screenRectToPdf, type PdfRect } from "@/components/pdf-viewer/field-geometry";
import { FIELD_TYPES, fieldTypeLabel, type FieldType } from "./field-types";

/** What a gesture needs of a field: its key, type and place on a page, in points. */
export type GestureField = PdfRect & { key: string; type: FieldType; page: number };

type Gesture = { key: string; mode: "move" | "resize"; startX: number; startY: number; start: { left: number; top: number; width: number; height: number }; viewport: PageViewport };

const DRAG_TYPE = "application/x-field-type";

/**
 * The field editor's pointer, keyboard and drag-and-drop handling, apart from what it renders.
 * Pointer: drag a field to move it, its corner handle to resize it (at least 8 points). Keyboard:
 * arrow keys move the focused field by 1 point (Shift: 10), Delete or Backspace removes it. Palette:
 * drag a field type onto a page; the drop point becomes the field's top-left corner. Screen
 * positions (CSS px at the page's zoom) go back to PDF points through the page's viewport, are
 * clamped to the page and rounded, and reach the editor through `place`.
 */
export function useFieldGestures({
  editable,
  select,
  place,
  remove,
  add,
  announce,
}: {
  editable: boolean;
  select: (key: string) => void;
  /** Gives a field a new rectangle (points). */
  place: (key: string, rect: PdfRect) => void;
  remove: (key: string) => void;
  /** Adds a field of `type` on `page` at `rect` (a drop from the palette). */
  add: (type: FieldType, page: number, rect: PdfRect) => void;
  announce: (message: string) => void;
}) {
  const gesture = useRef<Gesture | null>(null);

  function applyScreen(field: GestureField, viewport: PageViewport, next: { left: number; top: number; width: number; height: number }) {
    place(field.key, roundRect(clampToPage(screenRectToPdf(next, viewport), pageBoxOf(viewport))));
  }

  function onKeyDown(e: KeyboardEvent<HTMLElement>, field: GestureField, viewport: PageViewport) {
    if (!editable) return;
    if (e.key === "Delete" || e.key === "Backspace") {
      e.preventDefault();
      remove(field.key);
      return;
    }
    const step = (e.shiftKey ? 10 : 1) * viewport.scale;
    const delta = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    if (!delta) return;
    e.preventDefault();
    const screen = pdfRectToScreen(field, viewport);
    applyScreen(field, viewport, { ...screen, left: screen.left + delta[0]!, top: screen.top + delta[1]! });
  }

  function onPointerDown(e: PointerEvent<HTMLElement>, field: GestureField, viewport: PageViewport, mode: Gesture["mode"]) {
    if (!editable || e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    select(field.key);
    e.currentTarget.setPointerCapture(e.pointerId);
    gesture.current = { key: field.key, mode, startX: e.clientX, startY: e.clientY, start: pdfRectToScreen(field, viewport), viewport };
  }

  function onPointerMove(e: PointerEvent<HTMLElement>, field: GestureField) {
    const g = gesture.current;
    if (!g || g.key !== field.key) return;
    const dx = e.clientX - g.startX;
    const dy = e.clientY - g.startY;
    const next =
      g.mode === "move"
        ? { ...g.start, left: g.start.left + dx, top: g.start.top + dy }
        : { ...g.start, width: Math.max(8 * g.viewport.scale, g.start.width + dx), height: Math.max(8 * g.viewport.scale, g.start.height + dy) };
    applyScreen(field, g.viewport, next);
  }

  function onPointerUp(field: GestureField) {
    if (gesture.current?.key !== field.key) return;
    gesture.current = null;
    announce(`${fieldTypeLabel(field.type)} field at x ${field.x}, y ${field.y} points on page ${field.page}.`);
  }

  return {
    /** Props of a field's own element: select and drag it, move and remove it from the keyboard. */
    fieldProps: (field: GestureField, viewport: PageViewport) => ({
      onKeyDown: (e: KeyboardEvent<HTMLElement>) => onKeyDown(e, field, viewport),
      onPointerDown: (e: PointerEvent<HTMLElement>) => onPointerDown(e, field, viewport, "move"),
      onPointerMove: (e: PointerEvent<HTMLElement>) => onPointerMove(e, field),
      onPointerUp: () => onPointerUp(field),
    }),
    /** Props of a selected field's corner handle. */
    resizeHandleProps: (field: GestureField, viewport: PageViewport) => ({
      onPointerDown: (e: PointerEvent<HTMLElement>) => onPointerDown(e, field, viewport, "resize"),
      onPointerMove: (e: PointerEvent<HTMLElement>) => onPointerMove(e, field),
      onPointerUp: () => onPointerUp(field),
    }),
    /** Props of a page's overlay: accepts a field type dragged from the palette. */
    dropTargetProps: (page: number, viewport: PageViewport) => ({
      onDragOver: (e: DragEvent<HTMLElement>) => {
        if (editable && e.dataTransfer.types.includes(DRAG_TYPE)) e.preventDefault();
      },
      onDrop: (e: DragEvent<HTMLElement>) => {
        const type = e.dataTransfer.getData(DRAG_TYPE) as FieldType;
        const defaults = FIELD_TYPES.find((t) => t.type === type);
        if (!editable || !defaults) return;
        e.preventDefault();
        const bounds = e.currentTarget.getBoundingClientRect();
        const corner = screenPointToPdf(e.clientX - bounds.left, e.clientY - bounds.top, viewport);
        add(type, page, clampToPage({ x: corner.x, y: corner.y - defaults.height, width: defaults.width, height: defaults.height }, pageBoxOf(viewport)));
      },
    }),
    /** Props of a palette entry: starts dragging its field type. */
    paletteItemProps: (type: FieldType) => ({
      draggable: true,
      onDragStart: (e: DragEvent<HTMLElement>) => {
        e.dataTransfer.setData(DRAG_TYPE, type);
        e.dataTransfer.effectAllowed = "copy";
      },
    }),
  };
}
