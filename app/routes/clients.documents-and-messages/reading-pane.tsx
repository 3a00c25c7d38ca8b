import { Link, useLocation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { useHydrated } from "~/components/hydrated";
import type { MessageAttachment, ReadingPane as Pane } from "./view.server";
import { DownloadProgress, useDownloadSpinner } from "~/components/messages/download-progress";
import { LeavingSiteDialog } from "~/components/external-link";
import { useModalOnMount } from "~/components/modal-dialog";

/**
 * spec 002 §4 "Attachment download": with JavaScript the confirmation is a dialog (without, the
 * link opens the confirmation page); Download fetches the file and shows the spinner for 3 seconds
 * before the dialog closes, Cancel closes.
 */
function DownloadDialog({ attachment, onClose }: { attachment: MessageAttachment; onClose: () => void }) {
  const { t } = useTranslation("messages");
  const dialog = useModalOnMount();
  const close = useCallback(() => dialog.current?.close(), [dialog]);
  const { downloading, start } = useDownloadSpinner(close);
  return (
    <dialog ref={dialog} className="message-dialog" aria-labelledby="download-dialog-heading" onClose={onClose}>
      <h2 id="download-dialog-heading">{t("download.title")}</h2>
      <dl className="download-dialog__facts">
        <div>
          <dt>{t("download.fileName")}</dt>
          <dd>{attachment.filename}</dd>
        </div>
        <div>
          <dt>{t("download.size")}</dt>
          <dd>{attachment.size}</dd>
        </div>
      </dl>
      {attachment.risky ? <p className="alert alert--warning">{t("download.warning")}</p> : null}
      {attachment.fileHref ? null : <p className="alert alert--info">{t("download.notDownloadable")}</p>}
      <DownloadProgress downloading={downloading} filename={attachment.filename} />
      <p className="message-dialog__actions">
        {attachment.fileHref ? (
          <a
            href={attachment.fileHref}
            className="button"
            download={attachment.filename}
            aria-disabled={downloading || undefined}
            onClick={(event) => {
              if (downloading) event.preventDefault();
              else start();
            }}
          >
            {t("download.button")}
          </a>
        ) : null}
        <button type="button" className="button button--secondary" onClick={close}>
          {t("download.cancel")}
        </button>
      </p>
    </dialog>
  );
}

type LeavingSite = { href: string; host: string; link: HTMLAnchorElement };

/** The external link a click in the body landed on, if any (event delegation on the body). */
function leavingSiteTarget(container: HTMLElement, target: EventTarget | null): LeavingSite | null {
  const link = target instanceof Element ? target.closest<HTMLAnchorElement>('a[data-external="true"]') : null;
  if (!link || !container.contains(link)) return null;
  try {
    const url = new URL(link.href);
    return url.host === window.location.host ? null : { href: url.href, host: url.host, link };
  } catch {
    return null;
  }
}

type OpenPane = Extract<Pane, { state: "ok" }>;

/** Close, Expand or Shrink, Previous, Next and Reply: all links, the pane's state is the URL. */
function PaneControls({ pane }: { pane: OpenPane }) {
  const { t } = useTranslation("messages");
  return (
    <nav className="reading-pane__controls" aria-label={t("reading.label")}>
      <ul className="reading-pane__buttons">
        <li>
          <Link to={pane.closeHref} className="button button--secondary button--small" preventScrollReset>
            {t("reading.close")}
          </Link>
        </li>
        <li>
          <Link to={pane.sizeHref} className="button button--secondary button--small" preventScrollReset>
            {pane.expanded ? t("reading.shrink") : t("reading.expand")}
          </Link>
        </li>
        {pane.previousHref ? (
          <li>
            <Link
              to={pane.previousHref}
              className="button button--secondary button--small"
              rel="prev"
              preventScrollReset
            >
              {t("reading.previous")}
            </Link>
          </li>
        ) : null}
        {pane.nextHref ? (
          <li>
            <Link to={pane.nextHref} className="button button--secondary button--small" rel="next" preventScrollReset>
              {t("reading.next")}
            </Link>
          </li>
        ) : null}
        {pane.replyHref ? (
          <li>
            <Link to={pane.replyHref} className="button button--small">
              {t("reading.reply")}
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** The message's marks, date, sender, type and signature status. */
function PaneFacts({ pane }: { pane: OpenPane }) {
  const { t } = useTranslation("messages");
  return (
    <>
      {pane.adviserOnly || pane.relatedEntity ? (
        <p className="message-item__marks">
          {pane.adviserOnly ? <span className="tag tag--adviser">{t("list.adviserOnly")}</span> : null}
          {pane.relatedEntity ? <span className="tag tag--related">{t("list.relatedEntity")}</span> : null}
        </p>
      ) : null}
      <dl className="reading-pane__facts">
        <div>
          <dt>{t("reading.date")}</dt>
          <dd>{pane.date}</dd>
        </div>
        {pane.from ? (
          <div>
            <dt>{t("reading.from")}</dt>
            <dd>{pane.from}</dd>
          </div>
        ) : null}
        {pane.type ? (
          <div>
            <dt>{t("reading.type")}</dt>
            <dd lang={pane.typeLang ?? undefined}>{pane.type}</dd>
          </div>
        ) : null}
        {pane.signatureStatus ? (
          <div>
            <dt>{t("reading.signatureStatus")}</dt>
            <dd className="reading-pane__signature">
              {pane.signatureStatus}
              {pane.signatureHref ? (
                <>
                  {" "}
                  <Link to={pane.signatureHref}>{t("reading.signaturePage")}</Link>
                </>
              ) : null}
            </dd>
          </div>
        ) : null}
      </dl>
    </>
  );
}

/** The attachments, each a link to its download confirmation (a dialog once hydrated). */
function PaneAttachments({ attachments }: { attachments: MessageAttachment[] }) {
  const { t } = useTranslation("messages");
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState<MessageAttachment | null>(null);
  return (
    <section className="reading-pane__attachments" aria-labelledby="attachments-heading">
      <h3 id="attachments-heading">{t("reading.attachments")}</h3>
      <ul className="attachment-list">
        {attachments.map((a) => (
          <li key={a.docpartid}>
            <Link
              to={a.href}
              className="attachment-list__link"
              onClick={
                hydrated
                  ? (event) => {
                      event.preventDefault();
                      setConfirming(a);
                    }
                  : undefined
              }
            >
              {a.filename}
            </Link>{" "}
            <span className="attachment-list__size">({a.size})</span>
            {a.risky ? <span className="visually-hidden"> {t("reading.risky")}</span> : null}
          </li>
        ))}
      </ul>
      {confirming ? (
        <DownloadDialog key={confirming.docpartid} attachment={confirming} onClose={() => setConfirming(null)} />
      ) : null}
    </section>
  );
}

/** spec 002 §8: one click listener on the body (its links are the platform's HTML), only once hydrated. */
function useLeavingSite(body: React.RefObject<HTMLDivElement>, state: Pane["state"]) {
  const [leaving, setLeaving] = useState<LeavingSite | null>(null);
  useEffect(() => {
    const element = body.current;
    if (!element) return;
    const onClick = (event: MouseEvent) => {
      const found = leavingSiteTarget(element, event.target);
      if (!found) return;
      event.preventDefault();
      setLeaving(found);
    };
    element.addEventListener("click", onClick);
    return () => element.removeEventListener("click", onClick);
  }, [body, state]);
  return [leaving, setLeaving] as const;
}

// spec 002 "Documents and messages page": the reading pane with Close, Expand or Shrink,
// Previous, Next and Reply, the sanitised body and the attachments (each to its download
// confirmation). All controls are links: the pane's state is the URL.

export function ReadingPane({ pane }: { pane: Pane }) {
  const { t } = useTranslation("messages");
  const location = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useRef<HTMLDivElement>(null);
  const [leaving, setLeaving] = useLeavingSite(body, pane.state);

  // With JavaScript, opening a message moves focus to its subject, as a page load would start there.
  useEffect(() => {
    if (location.hash === "#reading-pane") heading.current?.focus();
  }, [location.key, location.hash]);

  if (pane.state === "notFound") {
    return (
      <section id="reading-pane" className="reading-pane" aria-labelledby="reading-pane-heading">
        <h2 id="reading-pane-heading" className="visually-hidden" tabIndex={-1} ref={heading}>
          {t("reading.label")}
        </h2>
        <p className="alert alert--info">{t("reading.notFound")}</p>
        <p>
          <Link to={pane.closeHref} className="button button--secondary" preventScrollReset>
            {t("reading.close")}
          </Link>
        </p>
      </section>
    );
  }

  return (
    <section
      id="reading-pane"
      className={`reading-pane${pane.expanded ? " reading-pane--expanded" : ""}`}
      aria-labelledby="reading-pane-heading"
    >
      <PaneControls pane={pane} />
      <h2 id="reading-pane-heading" className="reading-pane__subject" tabIndex={-1} ref={heading}>
        {pane.subject}
      </h2>
      <PaneFacts pane={pane} />
      <div ref={body} className="reading-pane__body text-page" dangerouslySetInnerHTML={{ __html: pane.bodyHtml }} />
      {leaving ? (
        <LeavingSiteDialog
          className="message-dialog"
          key={leaving.href}
          leaving={leaving}
          onClose={() => {
            leaving.link.focus();
            setLeaving(null);
          }}
        />
      ) : null}
      {pane.attachments.length ? <PaneAttachments attachments={pane.attachments} /> : null}
    </section>
  );
}
