import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { lazyPart } from "~/components/lazy-part";
import { ComposeForm as ComposeFormOnServer } from "./compose-form.server";
import composeStyles from "./compose.css";
import { EntityFilterForm, FolderNav, ListFilterForm, ListFilterSummary } from "./folders";
import { MessageList } from "./list";
import { ReadingPane } from "./reading-pane";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { replySubject } from "./compose";
import { composeAction } from "./compose.server";
import { listQuery, MESSAGES_PATH, messagesHref, readMessagesQuery } from "~/lib/messages/query";
import { buildMessagesView } from "./view.server";
import { messagesSettings, messagesToggles } from "~/planning/messages.server";
import { orFail } from "~/session/failures.server";
import { fetchDocument } from "~/planning/docnote.server";
import { readFeatureToggles } from "~/planning/feature-toggles.server";
import { getSite } from "~/planning/site.server";
import { requireClientContext } from "~/session/guards.server";
import messagesStyles from "./messages.css";
import { downloadProgressStyles } from "~/components/messages/download-progress";
import { NotificationPanels, notificationPanelsStyles } from "~/components/notifications/notification-panels";
import { loadNotificationPanels } from "~/session/notifications.server";
import { errorPageTitle } from "~/lib/error-title";

// spec 002 "Documents and messages page", §4 "Reading and listing messages", §6 roles
// (docs/decisions/080-documents-and-messages.md). Every state is the URL (app/lib/messages/query.ts).

export const handle = { i18n: ["messages", "compose", "notifications"] };

/** The compose and reply form: in the first load of the compose and reply views only. */
const ComposeForm = lazyPart("compose-form", ComposeFormOnServer, () =>
  import("./compose-form").then((m) => m.ComposeForm),
);

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: messagesStyles },
  { rel: "stylesheet", href: downloadProgressStyles },
  { rel: "stylesheet", href: composeStyles },
  { rel: "stylesheet", href: notificationPanelsStyles },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "messages")]);
  const query = readMessagesQuery(new URL(request.url));
  const site = await getSite(locale);
  // issue 25 item 3: the site's heading only in the page's language (docs/decisions/119)
  const heading = messagesSettings(site, locale).heading ?? t("heading");
  const { planning } = context;

  // spec 002 "An unknown view shows an invalid-view text"
  if (query.view === "invalid") return json({ kind: "invalid" as const, heading }, { status: 404 });

  // spec 002 §6: only a client composes or replies, and not with one-way messaging; otherwise the list
  if ((query.view === "compose" || query.view === "reply") && !context.isAdviser) {
    const replyTo = query.view === "reply" ? query.replyTo : null;
    const [toggles, original] = await orFail(
      request,
      Promise.all([
        readFeatureToggles(planning),
        replyTo !== null ? fetchDocument(planning, replyTo) : Promise.resolve(null),
      ]),
    );
    if (!messagesToggles(toggles).oneWay) {
      return json({
        kind: "compose" as const,
        heading,
        mode: query.view,
        // spec 002 §5: the reply's subject is 'RE:' and the original's, as the send will use it
        replyTo: original ? { id: original.id, subject: replySubject(original.subject ?? "") } : null,
        cancelHref: original
          ? messagesHref(listQuery(query), { message: original.id })
          : messagesHref(listQuery(query)),
      });
    }
  }

  const [view, notificationPanels] = await Promise.all([
    orFail(
      request,
      buildMessagesView({
        planning,
        t,
        locale,
        timeZone: context.user.userTimezone,
        site,
        query: query.view === "messages" ? query : listQuery(query),
        entityId: context.entityId,
        isClient: !context.isAdviser,
        portalHost: new URL(request.url).host,
      }),
    ),
    // spec 002 "Notification and postponement panels" (clients only; none when the call fails)
    loadNotificationPanels(request, context, { isMessagesPage: true }),
  ]);
  return json({ kind: "messages" as const, heading: view.heading, view, notificationPanels });
}

/** The compose and reply form posts here (spec 002 "Compose and reply"). */
export async function action(args: ActionFunctionArgs) {
  return composeAction(args);
}

export default function DocumentsAndMessages() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("messages");
  return (
    <div
      className={`page page--messages${data.kind !== "compose" && data.kind !== "invalid" && data.view.pane?.state === "ok" ? " page--reading" : ""}`}
    >
      {data.kind === "compose" ? null : (
        <>
          {data.kind === "invalid" ? null : <ListFilterSummary view={data.view} />}
          <h1>{data.heading}</h1>
        </>
      )}
      {data.kind === "invalid" ? (
        <>
          <p className="alert alert--info">{t("invalidView")}</p>
          <p>
            <Link to={MESSAGES_PATH}>{t("invalidViewLink")}</Link>
          </p>
        </>
      ) : data.kind === "compose" ? (
        <ComposeForm mode={data.mode} replyTo={data.replyTo} cancelHref={data.cancelHref} heading={data.heading} />
      ) : (
        <>
          <NotificationPanels data={data.notificationPanels} />
          {data.view.composeHref ? (
            <p className="messages-actions">
              <Link to={data.view.composeHref} className="button">
                {t("newMessage")}
              </Link>
            </p>
          ) : null}
          <div
            className={`messages-layout${
              data.view.pane?.state === "ok" && data.view.pane.expanded
                ? " messages-layout--expanded"
                : data.view.pane
                  ? ""
                  : " messages-layout--list"
            }`}
          >
            <div className="messages-layout__controls">
              <FolderNav folders={data.view.folders} />
              {data.view.entityFilter ? (
                <EntityFilterForm filter={data.view.entityFilter} sort={data.view.query.sort} />
              ) : null}
              <ListFilterForm key={`${data.view.query.folder}|${data.view.query.entity ?? ""}`} view={data.view} />
            </div>
            {data.view.pane?.state === "ok" && data.view.pane.expanded ? null : <MessageList view={data.view} />}
            {data.view.pane ? <ReadingPane pane={data.view.pane} /> : null}
          </div>
        </>
      )}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.heading} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
