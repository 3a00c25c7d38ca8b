// A native <dialog> shown as a modal (Escape and its own buttons close it): the pages' dialogs that
// JavaScript adds on top of what works without it (filter options, glossary, document view,
// download confirmation).
import { useEffect, useRef, useState } from "react";

/** A `<dialog>` shown as a modal as soon as it mounts (its parent mounts it when it is wanted). */
export function useModalOnMount() {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return dialog;
}

/**
 * A dialog opened by a button: render it while `open`, give it `ref`, `onClose={closed}`; `show()`
 * opens it and `close()` closes it (as Escape does).
 *
 * On opening, the focus goes to the dialog's element marked `data-autofocus` (its heading, with
 * tabIndex -1, or its close button), not to its first focusable element, which may be a frame whose
 * document (a PDF viewer) keeps Escape to itself (issue 25 item 5). Escape pressed inside a frame of
 * the portal's own origin closes the dialog too. On closing, however it closes, the focus goes back
 * to what opened it.
 */
export function useModalDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!open || !element) return;
    if (!element.open) element.showModal();
    element.querySelector<HTMLElement>("[data-autofocus]")?.focus();
    return closeOnEscapeInFrames(element);
  }, [open]);
  return {
    ref,
    open,
    show: () => {
      opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setOpen(true);
    },
    close: () => ref.current?.close(),
    closed: () => {
      setOpen(false);
      const back = opener.current;
      opener.current = null;
      if (back?.isConnected) back.focus();
    },
  };
}

/**
 * Escape in a frame's own document does not reach the page: listen in each same-origin frame of the
 * dialog (again whenever a frame loads). A cross-origin frame, or a browser's PDF plugin, cannot be
 * listened to: the dialog's focus starts outside them, and its close button is always one Tab away.
 */
function closeOnEscapeInFrames(dialog: HTMLDialogElement): () => void {
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !dialog.open) return;
    event.preventDefault();
    dialog.close();
  };
  const watched = new Set<Window>();
  const listen = (frame: HTMLIFrameElement) => {
    try {
      const view = frame.contentWindow;
      if (!view || watched.has(view)) return;
      view.addEventListener("keydown", onKey);
      watched.add(view);
    } catch {
      // another origin: nothing to listen to
    }
  };
  const frames = [...dialog.querySelectorAll("iframe")];
  const onLoad = (event: Event) => listen(event.currentTarget as HTMLIFrameElement);
  for (const frame of frames) {
    listen(frame);
    frame.addEventListener("load", onLoad);
  }
  return () => {
    for (const frame of frames) frame.removeEventListener("load", onLoad);
    for (const view of watched) {
      try {
        view.removeEventListener("keydown", onKey);
      } catch {
        // the frame has gone
      }
    }
  };
}
