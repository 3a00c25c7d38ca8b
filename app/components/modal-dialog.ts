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
 */
export function useModalDialog() {
  const ref = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (open && element && !element.open) element.showModal();
  }, [open]);
  return { ref, open, show: () => setOpen(true), close: () => ref.current?.close(), closed: () => setOpen(false) };
}
