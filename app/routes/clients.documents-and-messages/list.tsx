import { Link, useLocation } from "@remix-run/react";
import { Fragment, useEffect } from "react";
import { useTranslation } from "~/components/translation";
import type { MatchPart, MessageListItem, MessagesView } from "./view.server";

// spec 002 "Documents and messages page": the message list with 'Load more', the empty texts,
// and the marks: unread (clients), adviser-only, related entity, awaiting signature (bold, flagged).

/** A message's unread, signature, adviser-only and related-entity marks, when it has any. */
function ItemMarks({ item }: { item: MessageListItem }) {
  const { t } = useTranslation("messages");
  if (!(item.adviserOnly || item.relatedEntity || item.awaitingSignature || item.unread || item.badge)) return null;
  return (
    <p className="message-item__marks">
      {item.unread ? (
        <span className="tag tag--unread" aria-hidden="true">
          {t("list.unread")}
        </span>
      ) : null}
      {item.badge ? (
        <span className={`tag tag--${item.badge.tone}`}>{item.badge.text}</span>
      ) : item.awaitingSignature ? (
        <span className="tag tag--warning">{t("list.awaitingSignature")}</span>
      ) : null}
      {item.adviserOnly ? <span className="tag tag--adviser">{t("list.adviserOnly")}</span> : null}
      {item.relatedEntity ? <span className="tag tag--related">{t("list.relatedEntity")}</span> : null}
    </p>
  );
}

/**
 * A searched text with what was searched for marked (decision 209): the parts come as text and
 * flags, so nothing of the message is read as markup.
 */
function Marked({ parts }: { parts: MatchPart[] }) {
  return (
    <>
      {parts.map((part, i) =>
        part.match ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>,
      )}
    </>
  );
}

/** Where a search found the message besides its subject: a snippet of the body, attachments' names. */
function FoundIn({ found }: { found: NonNullable<MessageListItem["found"]> }) {
  const { t } = useTranslation("messages");
  if (!found.body && found.attachments.length === 0) return null;
  return (
    <div className="message-item__found">
      {found.body ? (
        <p className="message-item__snippet">
          <span className="visually-hidden">{t("list.foundInBody")} </span>
          <Marked parts={found.body} />
        </p>
      ) : null}
      {found.attachments.map((parts, i) => (
        <p key={i} className="message-item__snippet">
          {t("list.foundInAttachment")} <Marked parts={parts} />
        </p>
      ))}
    </div>
  );
}

/** One message in the list; `position` (from 1) is its anchor for 'Load more'. */
function MessageItem({ item, position }: { item: MessageListItem; position: number }) {
  const { t } = useTranslation("messages");
  const classes = [
    "message-item",
    item.unread ? "message-item--unread" : "",
    item.awaitingSignature ? "message-item--signature" : "",
    item.current ? "message-item--current" : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <li className={classes} id={`message-${position}`} tabIndex={-1}>
      <Link
        to={item.href}
        className="message-item__link"
        aria-current={item.current ? "true" : undefined}
        preventScrollReset
      >
        {item.unread ? <span className="visually-hidden">{t("list.unread")}: </span> : null}
        <span className="message-item__subject">
          {item.found?.subject ? <Marked parts={item.found.subject} /> : item.subject}
        </span>
      </Link>
      <p className="message-item__meta">
        <span className="message-item__date">{item.date}</span>
        {item.from ? (
          <span className="message-item__from">
            <span className="visually-hidden">{t("list.from")} </span>
            {item.from}
          </span>
        ) : null}
        {item.type ? (
          <span className="message-item__type" lang={item.typeLang ?? undefined}>
            {item.type}
          </span>
        ) : null}
        {item.attachmentCount > 0 ? (
          <span className="message-item__attachments">{t("list.attachments", { count: item.attachmentCount })}</span>
        ) : null}
      </p>
      {item.found ? <FoundIn found={item.found} /> : null}
      <ItemMarks item={item} />
    </li>
  );
}

export function MessageList({ view }: { view: MessagesView }) {
  const { t } = useTranslation("messages");
  const location = useLocation();
  const { list } = view;

  // 'Load more' links to the first new message (#message-21): the browser scrolls to it; with
  // JavaScript it also takes focus, so keyboard and screen-reader users continue from there.
  useEffect(() => {
    if (!/^#message-\d+$/.test(location.hash)) return;
    document.getElementById(location.hash.slice(1))?.focus();
  }, [location.key, location.hash]);

  return (
    <section className="message-list" aria-labelledby="message-list-heading">
      <h2 id="message-list-heading" className="message-list__heading" lang={view.folder.lang ?? undefined}>
        {view.folder.name}
      </h2>
      {list.empty ? (
        <p className="message-list__empty" role="status">
          {list.empty}
        </p>
      ) : (
        <ol className="message-list__items" aria-label={t("list.label", { folder: view.folder.name })}>
          {list.items.map((item, index) => (
            <MessageItem key={item.id} item={item} position={index + 1} />
          ))}
        </ol>
      )}
      {list.moreHref ? (
        <p className="message-list__more">
          <Link to={list.moreHref} className="button button--secondary" preventScrollReset>
            {t("list.loadMore")}
          </Link>
        </p>
      ) : null}
    </section>
  );
}
