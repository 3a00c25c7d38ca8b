// spec 002 §4 "Review flow": a leave-the-page warning while the review's questions are open, off
// once submitted and removed at logout. The browser's own beforeunload prompt (its wording is the
// browser's); one at a time, held here so that the log out confirmation can remove it.
import { useEffect } from "react";

let active: ((event: BeforeUnloadEvent) => void) | null = null;

function onBeforeUnload(event: BeforeUnloadEvent) {
  event.preventDefault();
  // older browsers need a returnValue to show the prompt
  event.returnValue = "";
}

/** Turns the warning on (idempotent). */
export function setLeaveWarning(): void {
  if (active || typeof window === "undefined") return;
  active = onBeforeUnload;
  window.addEventListener("beforeunload", active);
}

/** Turns the warning off: a form of the page itself is posted, or the user confirmed log out. */
export function clearLeaveWarning(): void {
  if (!active || typeof window === "undefined") return;
  window.removeEventListener("beforeunload", active);
  active = null;
}

/**
 * The warning while `on` holds, removed when the component unmounts; set again for every new
 * `page` (a form's own post clears it, and the page that follows may want it back).
 */
export function useLeaveWarning(on: boolean, page?: string): void {
  useEffect(() => {
    if (!on) return;
    setLeaveWarning();
    return clearLeaveWarning;
  }, [on, page]);
}
