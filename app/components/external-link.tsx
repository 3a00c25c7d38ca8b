import { useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { useHydrated } from "~/components/hydrated";
import { useModalOnMount } from "~/components/modal-dialog";

// spec 002 §8 'Leaving Site' and §9 "External links: open in a new tab without opener", as the
// reading pane does for a message's links: without JavaScript the link opens a new tab without
// opener; with it, a dialog asks first. Its texts are the messages namespace's `leaving.*`, so a
// route that shows one loads that namespace (`handle.i18n`).

type Leaving = { href: string; host: string };

/** The 'Leaving Site' question itself (the reading pane asks it for a message's links too). */
export function LeavingSiteDialog({
  leaving,
  onClose,
  className = "leaving-dialog",
}: {
  leaving: Leaving;
  onClose: () => void;
  className?: string;
}) {
  const { t } = useTranslation("messages");
  const dialog = useModalOnMount();
  return (
    <dialog
      ref={dialog}
      className={className}
      aria-labelledby="leaving-dialog-heading"
      aria-describedby="leaving-dialog-text"
      onClose={onClose}
    >
      <h2 id="leaving-dialog-heading" className="leaving-dialog__title">
        {t("leaving.title")}
      </h2>
      <p id="leaving-dialog-text" className="leaving-dialog__text">
        {t("leaving.text", { host: leaving.host })}
      </p>
      <p className="button-group">
        <button
          type="button"
          className="button"
          onClick={() => {
            window.open(leaving.href, "_blank", "noopener,noreferrer");
            dialog.current?.close();
          }}
        >
          {t("leaving.continue")}
        </button>
        <button type="button" className="button button--secondary" onClick={() => dialog.current?.close()}>
          {t("leaving.cancel")}
        </button>
      </p>
    </dialog>
  );
}

/** A link to another site: a new tab without opener, and with JavaScript the 'Leaving Site' question first. */
export function ExternalLink({
  href,
  className,
  children,
}: {
  href: string;
  className?: string;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const link = useRef<HTMLAnchorElement>(null);
  const [leaving, setLeaving] = useState<Leaving | null>(null);
  return (
    <>
      <a
        ref={link}
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className={className}
        onClick={
          hydrated
            ? (event) => {
                const url = new URL(href, window.location.href);
                if (url.host === window.location.host) return;
                event.preventDefault();
                setLeaving({ href: url.href, host: url.host });
              }
            : undefined
        }
      >
        {children}
        <span className="visually-hidden"> {t("externalLink.newTab")}</span>
      </a>
      {leaving ? (
        <LeavingSiteDialog
          leaving={leaving}
          onClose={() => {
            link.current?.focus();
            setLeaving(null);
          }}
        />
      ) : null}
    </>
  );
}
