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
 * The warning while `on` holds, removed when the component unmounts (a page of the review mounts
 * afresh, so a form's own post, which clears it, is followed by the next page setting it again).
 */
export function useLeaveWarning(on: boolean): void {
  useEffect(() => {
    if (!on) return;
    setLeaveWarning();
    return clearLeaveWarning;
  }, [on]);
}
