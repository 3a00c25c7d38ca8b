import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { useHydrated } from "~/components/hydrated";

export type ToastMessage = {
  type: "success" | "error" | "info";
  /** An i18n key ("namespace:key") or a ready text. */
  title: string;
  description?: string;
};

/** spec 000 §8 and §9: toasts last 6 seconds. */
export const TOAST_TIME_MS = 6_000;

type Shown = { id: number; toast: ToastMessage };

/**
 * spec 000 §8 "Global handling": flash messages bottom-left, newest on top. Two live regions that
 * are always in the page (a region added together with its text is often not announced): errors
 * in an alert, the rest in a polite status. Without JavaScript a toast simply stays on its page;
 * with it, each closes after 6 seconds (paused while pointed at or focused) or with its button.
 */
export function Toasts({ toast }: { toast: ToastMessage | null }) {
  const { t } = useTranslation();
  const nextId = useRef(1);
  const lastSeen = useRef<ToastMessage | null>(toast);
  const [shown, setShown] = useState<Shown[]>(() => (toast ? [{ id: 0, toast }] : []));

  // A new toast arrives with the root loader's data after a redirect (a new object each time).
  useEffect(() => {
    if (!toast || toast === lastSeen.current) return;
    lastSeen.current = toast;
    const id = nextId.current++;
    setShown((list) => [{ id, toast }, ...list]);
  }, [toast]);

  const close = useCallback((id: number) => setShown((list) => list.filter((s) => s.id !== id)), []);
  const errors = shown.filter((s) => s.toast.type === "error");
  const others = shown.filter((s) => s.toast.type !== "error");

  return (
    <section className="toasts" aria-label={t("toasts.label")}>
      <div role="alert" className="toasts__region">
        {errors.map((s) => (
          <ToastItem key={s.id} shown={s} onClose={close} />
        ))}
      </div>
      <div role="status" aria-live="polite" className="toasts__region">
        {others.map((s) => (
          <ToastItem key={s.id} shown={s} onClose={close} />
        ))}
      </div>
    </section>
  );
}

function ToastItem({ shown, onClose }: { shown: Shown; onClose: (id: number) => void }) {
  const { t, i18n } = useTranslation();
  const hydrated = useHydrated();
  const [paused, setPaused] = useState(false);
  const text = (value: string) => (i18n.exists(value) ? t(value) : value);

  useEffect(() => {
    if (paused) return;
    const timer = window.setTimeout(() => onClose(shown.id), TOAST_TIME_MS);
    return () => window.clearTimeout(timer);
  }, [paused, shown.id, onClose]);

  return (
    <div
      className={`toast toast--${shown.toast.type}`}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <div className="toast__body">
        <p className="toast__title">{text(shown.toast.title)}</p>
        {shown.toast.description ? <p className="toast__description">{text(shown.toast.description)}</p> : null}
      </div>
      {hydrated ? (
        <button type="button" className="toast__close" onClick={() => onClose(shown.id)}>
          <span aria-hidden="true">×</span>
          <span className="visually-hidden">{t("toasts.close")}</span>
        </button>
      ) : null}
    </div>
  );
}
