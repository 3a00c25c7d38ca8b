import { useLocation } from "@remix-run/react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput, useAuthenticityToken } from "remix-utils/csrf/react";
import {
  countsAsActivity,
  createThrottle,
  nextTickIn,
  phaseAt,
  scheduleFrom,
  type TimeoutPhase,
  type TimeoutSchedule,
  timeLeft,
} from "~/lib/session-timeout";
export type SessionTimeoutProps = {
  /** The timeout profile's minutes (spec 000 §4: server values replace the defaults). */
  idleMinutes: number;
  /** What the server still allows after the response that rendered this page. */
  remainingMs: number;
  /** Changes with every root loader answer, so that each server round trip restarts the timers. */
  checkedAt: number;
};

const HEARTBEAT_PATH = "/session/heartbeat";
const TIMEOUT_PATH = "/session/timeout";
const LOST_SESSION = "/login?reason=LostSession";
/** Other tabs of the portal hear about activity here (each tab has its own timers). */
const ACTIVITY_KEY = "client-online:session-activity";

type Ended = React.MutableRefObject<boolean>;
type SetSchedule = (schedule: TimeoutSchedule | null) => void;
type TimeoutView = { phase: TimeoutPhase; left: { minutes: number; seconds: number } };

/**
 * spec 000 §4 "Session timeout", with JavaScript only (docs/decisions/060). The server enforces the
 * timeout whatever happens here; this warns before it, keeps an active user's session alive and
 * logs out at the end. Without JavaScript the next request after the timeout lands on the login
 * page with the lost-session text.
 */
export default function SessionTimeout({ idleMinutes, remainingMs, checkedAt }: SessionTimeoutProps) {
  const location = useLocation();
  const endFormRef = useRef<HTMLFormElement>(null);
  const endedRef = useRef(false);
  const [schedule, setSchedule] = useState<TimeoutSchedule | null>(null);

  // Each page answer from the server restarts the timers from what the server still allows.
  useEffect(() => {
    setSchedule(scheduleFrom(Date.now(), idleMinutes, remainingMs));
  }, [idleMinutes, remainingMs, checkedAt]);

  const end = useCallback(() => {
    if (endedRef.current) return;
    endedRef.current = true;
    // A plain form post: the server ends the platform session and clears the cookie.
    endFormRef.current?.submit();
  }, []);
  const activity = useActivity(idleMinutes, endedRef, setSchedule);
  const view = useTimers(schedule, end);
  useActivityEvents({ schedule, idleMinutes, endedRef, setSchedule, activity, end });

  return (
    <>
      <TimeoutDialog view={view} running={schedule !== null} activity={activity} />
      <form ref={endFormRef} method="post" action={TIMEOUT_PATH} hidden>
        <AuthenticityTokenInput />
        <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      </form>
    </>
  );
}

/**
 * Posts a heartbeat. Its answer: the session is lost (go to `redirectTo`), alive (with the
 * profile's minutes when the server says them), or unknown (offline, or a failure: the timers carry
 * on and the server decides at the next request).
 */
async function postHeartbeat(
  csrfToken: string,
): Promise<{ lost: true; redirectTo: string } | { lost: false; idleMinutes?: number } | null> {
  const body = new FormData();
  body.set("csrf", csrfToken);
  let response: Response;
  try {
    response = await fetch(HEARTBEAT_PATH, { method: "POST", body, credentials: "same-origin" });
  } catch {
    return null;
  }
  if (response.status === 401) {
    // spec 000 §8 heartbeat failure 'No current session': the lost-session login.
    const answer = (await response.json().catch(() => null)) as { redirectTo?: string } | null;
    return { lost: true, redirectTo: answer?.redirectTo ?? LOST_SESSION };
  }
  if (!response.ok) return null;
  const answer = (await response.json().catch(() => null)) as { idleMinutes?: number } | null;
  return { lost: false, idleMinutes: answer?.idleMinutes };
}

/** spec 000 §4/§9: activity (at most once a second) restarts the timers and sends a heartbeat. */
function useActivity(idleMinutes: number, endedRef: Ended, setSchedule: SetSchedule): () => void {
  const csrfToken = useAuthenticityToken();
  const allowRef = useRef(createThrottle());
  const heartbeat = useCallback(async () => {
    const answer = await postHeartbeat(csrfToken);
    if (!answer) return;
    if (answer.lost) {
      endedRef.current = true;
      window.location.assign(answer.redirectTo);
      return;
    }
    const now = Date.now();
    setSchedule(scheduleFrom(now, answer.idleMinutes ?? idleMinutes));
    try {
      window.localStorage.setItem(ACTIVITY_KEY, String(now));
    } catch {
      // storage unavailable (private browsing): only this tab restarts
    }
  }, [csrfToken, idleMinutes, endedRef, setSchedule]);

  return useCallback(() => {
    const now = Date.now();
    if (endedRef.current || !allowRef.current(now)) return;
    setSchedule(scheduleFrom(now, idleMinutes));
    void heartbeat();
  }, [heartbeat, idleMinutes, endedRef, setSchedule]);
}

/** The timers: the warning, then a countdown each second, then the end. */
function useTimers(schedule: TimeoutSchedule | null, end: () => void): TimeoutView {
  const [view, setView] = useState<TimeoutView>({ phase: "active", left: { minutes: 0, seconds: 0 } });
  useEffect(() => {
    if (!schedule) return;
    let timer: number | undefined;
    const tick = () => {
      const now = Date.now();
      const phase = phaseAt(schedule, now);
      setView({ phase, left: timeLeft(schedule, now) });
      if (phase === "ended") return end();
      const delay = nextTickIn(schedule, now);
      if (delay !== null) timer = window.setTimeout(tick, Math.max(delay, 0));
    };
    tick();
    return () => window.clearTimeout(timer);
  }, [schedule, end]);
  return view;
}

/** Activity: mouse presses (throttled), a hidden tab shown again, and other tabs' heartbeats. */
function useActivityEvents({
  schedule,
  idleMinutes,
  endedRef,
  setSchedule,
  activity,
  end,
}: {
  schedule: TimeoutSchedule | null;
  idleMinutes: number;
  endedRef: Ended;
  setSchedule: SetSchedule;
  activity: () => void;
  end: () => void;
}) {
  const scheduleRef = useRef<TimeoutSchedule | null>(null);
  useEffect(() => {
    scheduleRef.current = schedule;
  }, [schedule]);
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      if (countsAsActivity(event.target as Element | null)) activity();
    };
    const onVisibility = () => {
      if (document.visibilityState !== "visible" || endedRef.current) return;
      // Timers of a hidden tab may run late: a session that has ended stays ended.
      const current = scheduleRef.current;
      if (current && phaseAt(current, Date.now()) === "ended") return end();
      activity();
    };
    const onStorage = (event: StorageEvent) => {
      if (event.key === ACTIVITY_KEY && !endedRef.current) setSchedule(scheduleFrom(Date.now(), idleMinutes));
    };
    document.addEventListener("pointerdown", onPointerDown, true);
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("storage", onStorage);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown, true);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("storage", onStorage);
    };
  }, [activity, end, idleMinutes, endedRef, setSchedule]);
}

/** The modal: opened over an inert, blurred page with focus on 'Stay logged in'; Escape stays. */
function useWarningDialog(phase: TimeoutPhase, activity: () => void) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const stayRef = useRef<HTMLButtonElement>(null);
  const returnFocusRef = useRef<Element | null>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (phase === "warning" && !dialog.open) {
      returnFocusRef.current = document.activeElement;
      dialog.showModal();
      stayRef.current?.focus();
    } else if (phase !== "warning" && dialog.open) {
      dialog.close();
      if (returnFocusRef.current instanceof HTMLElement) returnFocusRef.current.focus();
    }
  }, [phase]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    const onCancel = (event: Event) => {
      event.preventDefault();
      activity();
    };
    dialog.addEventListener("cancel", onCancel);
    return () => dialog.removeEventListener("cancel", onCancel);
  }, [activity]);
  return { dialogRef, stayRef };
}

/** The warning: the time left, 'Stay logged in' and 'Log out'. */
function TimeoutDialog({ view, running, activity }: { view: TimeoutView; running: boolean; activity: () => void }) {
  const { t } = useTranslation("session");
  const { dialogRef, stayRef } = useWarningDialog(view.phase, activity);
  const titleId = useId();
  const textId = useId();
  const left = t("timeout.timeLeft", {
    minutes: view.left.minutes,
    seconds: String(view.left.seconds).padStart(2, "0"),
  });
  return (
    <dialog
      ref={dialogRef}
      className="session-timeout"
      // Set once the timers run (after hydration): journeys wait for it before moving the clock.
      data-timers={running ? "running" : undefined}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <h2 id={titleId} className="session-timeout__title">
        {t("timeout.title")}
      </h2>
      <div id={textId}>
        <p className="session-timeout__time">{t("timeout.text", { timeLeft: left })}</p>
        <p>{t("timeout.question")}</p>
      </div>
      <div className="button-group">
        <button ref={stayRef} type="button" className="button" onClick={activity}>
          {t("timeout.stay")}
        </button>
        <form method="post" action="/logout">
          <AuthenticityTokenInput />
          <button type="submit" className="button button--secondary" data-no-heartbeat="">
            {t("timeout.logOut")}
          </button>
        </form>
      </div>
    </dialog>
  );
}
