import { Form, useLocation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import { ContactInstead } from "~/components/contact-instead";
import { useModalOnMount } from "~/components/modal-dialog";
import { useShellData } from "~/components/shell/root-data";
import type { SpeakToAdviser } from "~/lib/speak-to-adviser";
import {
  isRoboType,
  nextIndex,
  type NotificationPanelItem,
  type NotificationPanelsData,
  pageLabel,
  previousIndex,
  usesModal,
} from "~/lib/notifications";
import notificationPanelsStyles from "./notification-panels.css";

export { notificationPanelsStyles };

// spec 002 "Notification and postponement panels", §4 "Notification flow", "Postponement panel"
// (docs/decisions/097). Without JavaScript every notification is a panel in a list; with it, two or
// more page through a modal dialog ('n / total', wrapping) that stays until closed, once the
// cookie notice is answered (decision 120). Every button
// is a plain form post to /notifications.

const ACTION = "/notifications";

/** The postponement notices, then the notifications, for the clients home and the messages page. */
export function NotificationPanels({ data }: { data: NotificationPanelsData | null | undefined }) {
  if (!data) return null;
  return (
    <>
      <PostponementNotice items={data.postponed} />
      <Notifications items={data.notifications} speak={data.speakToAdviser} />
    </>
  );
}

function useReturnTo(): string {
  const location = useLocation();
  return `${location.pathname}${location.search}`;
}

function texts(item: NotificationPanelItem) {
  // a robo journey in progress: the continue header, message and button replace the normal ones
  const variant = item.inProgress && isRoboType(item.type) ? "continue" : "";
  const key = (name: string) =>
    `${item.type}.${variant ? `${variant}${name[0]!.toUpperCase()}${name.slice(1)}` : name}`;
  return { header: key("header"), message: key("message"), button: key("button"), name: `${item.type}.name` };
}

function Notifications({ items, speak }: { items: NotificationPanelItem[]; speak: SpeakToAdviser }) {
  const hydrated = useHydrated();
  const [modalClosed, setModalClosed] = useState(false);
  // decision 120: the pop-up waits for the cookie choice, so it never covers the cookie notice (a
  // modal makes the rest of the page inert); until then the notifications are panels in the page,
  // and the root's data says when the choice is made
  const cookieChoiceMade = useShellData()?.cookieConsent !== false;
  if (!items.length) return null;
  if (hydrated && usesModal(items.length) && cookieChoiceMade && !modalClosed)
    return <NotificationModal items={items} speak={speak} onClosed={() => setModalClosed(true)} />;
  return (
    <div className="notification-panels">
      {items.map((item) => (
        <NotificationPanel key={item.type} item={item} speak={speak} />
      ))}
    </div>
  );
}

function NotificationPanel({ item, speak }: { item: NotificationPanelItem; speak: SpeakToAdviser }) {
  const { t } = useTranslation("notifications");
  const text = texts(item);
  const headingId = `notification-${item.type}-heading`;
  return (
    <section className="notification-panel" aria-labelledby={headingId}>
      <h2 id={headingId} className="notification-panel__heading">
        {t(text.header)}
      </h2>
      <p>{t(text.message)}</p>
      <NotificationActions item={item} speak={speak} />
    </section>
  );
}

function NotificationForm({ item, speak }: { item: NotificationPanelItem; speak: SpeakToAdviser }) {
  const { t } = useTranslation("notifications");
  const text = texts(item);
  const returnTo = useReturnTo();
  return (
    <Form method="post" action={ACTION} className="notification-panel__actions">
      <AuthenticityTokenInput />
      <input type="hidden" name="type" value={item.type} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <button type="submit" name="intent" value="open" className="button">
        {t(text.button)}
      </button>
      {/* issue 25 item 12: offered only to a client who has an adviser; the others read whom to contact below */}
      {speak.offered ? (
        <button type="submit" name="intent" value="speak" className="button button--secondary">
          {t("speakToAdviser")}
        </button>
      ) : null}
      {/* pages have other Close buttons: the accessible name says which notification */}
      <button
        type="submit"
        name="intent"
        value="close"
        className="button button--link notification-panel__close"
        aria-label={t("closeLabel", { name: t(text.name) })}
      >
        {t("close")}
      </button>
    </Form>
  );
}

/** The form, then whom to contact when there is no adviser to speak to (issue 25 item 12). */
function NotificationActions({ item, speak }: { item: NotificationPanelItem; speak: SpeakToAdviser }) {
  return (
    <>
      <NotificationForm item={item} speak={speak} />
      {speak.offered ? null : <ContactInstead speak={speak} />}
    </>
  );
}

/** spec 002 §4: the modal variant pages through the notifications and wraps around; no time-out. */
function NotificationModal({
  items,
  speak,
  onClosed,
}: {
  items: NotificationPanelItem[];
  speak: SpeakToAdviser;
  onClosed: () => void;
}) {
  const { t } = useTranslation("notifications");
  const dialog = useModalOnMount();
  const [index, setIndex] = useState(0);
  const total = items.length;
  const item = items[index % total]!;
  const text = texts(item);
  const page = pageLabel(index, total);
  return (
    <dialog
      ref={dialog}
      className="notification-dialog"
      aria-labelledby="notification-dialog-heading"
      onClose={onClosed}
    >
      <p className="notification-dialog__page" aria-live="polite">
        <span className="visually-hidden">{t("modal.pageLabel", page)}</span>
        <span aria-hidden="true">{t("modal.page", page)}</span>
      </p>
      <h2 id="notification-dialog-heading" className="notification-panel__heading">
        {t(text.header)}
      </h2>
      <p>{t(text.message)}</p>
      <NotificationActions key={item.type} item={item} speak={speak} />
      <p className="notification-dialog__paging">
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => setIndex((i) => previousIndex(i, total))}
        >
          {t("modal.previous")}
        </button>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={() => setIndex((i) => nextIndex(i, total))}
        >
          {t("modal.next")}
        </button>
      </p>
    </dialog>
  );
}

/** spec 002 §4 "Postponement panel": a slim notice; each link-like button marks its item updated and goes to its link. */
function PostponementNotice({ items }: { items: NotificationPanelItem[] }) {
  const { t } = useTranslation("notifications");
  const returnTo = useReturnTo();
  if (!items.length) return null;
  return (
    <section className="postponement-notice" aria-label={t("postponement.label")}>
      <ul className="postponement-notice__list">
        {items.map((item) => (
          <li key={item.type}>
            <Form method="post" action={ACTION} className="postponement-notice__item">
              <AuthenticityTokenInput />
              <input type="hidden" name="type" value={item.type} />
              <input type="hidden" name="returnTo" value={returnTo} />
              <span>{t(`postponement.${item.type}`)}</span>{" "}
              <button type="submit" name="intent" value="continue" className="button button--link">
                {t(`postponement.${item.type}.link`)}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
