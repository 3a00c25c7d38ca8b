import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { DownloadProgress, downloadProgressStyles, useDownloadSpinner } from "~/components/messages/download-progress";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { attachmentIdsOf, formatFileSize, isRiskyFile } from "~/lib/messages/files";
import { messagesHref, readMessagesQuery } from "~/lib/messages/query";
import { findAttachment } from "~/planning/docnote.server";
import { attachmentsDownloadable } from "~/planning/messages.server";
import { getSite } from "~/planning/site.server";
import { orFail } from "~/session/failures.server";
import { notFound, requireClientContext } from "~/session/guards.server";
import downloadStyles from "./download.css";
import { errorPageTitle } from "~/lib/error-title";

// spec 002 §4 "Attachment download": a confirmation with the file's name and size, the warning
// for risky types, and Download (a POST that streams the file) or Cancel (back to the message).
// A page of its own, so that it works without JavaScript.

export const handle = { i18n: ["messages"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: downloadStyles },
  { rel: "stylesheet", href: downloadProgressStyles },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  const ids = attachmentIdsOf(params);
  if (!ids) throw notFound();
  const { documentId, docpartid } = ids;
  const locale = await resolveLocale(request);
  const [t, site, attachment] = await Promise.all([
    getFixedT(request, "messages"),
    getSite(locale),
    orFail(request, findAttachment(context.planning, documentId, docpartid)),
  ]);
  if (!attachment) throw notFound();
  // the confirmation's query is the messages page's, so Cancel goes back to the same view
  const back = readMessagesQuery(new URL(request.url));
  return json({
    title: t("download.title"),
    filename: attachment.filename,
    size: formatFileSize(attachment.size, locale),
    risky: isRiskyFile(attachment.filename),
    downloadable: attachmentsDownloadable(site),
    fileHref: `/clients/documents-and-messages/files/${documentId}/${docpartid}`,
    cancelHref: messagesHref({ ...back, view: "messages", replyTo: null, message: documentId }, {}, "reading-pane"),
  });
}

export default function AttachmentDownload() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("messages");
  // with JavaScript the spinner shows for 3 seconds after Download (spec 002 §4, §9); the form
  // still posts natively, so that the browser itself receives the file
  const { downloading, start } = useDownloadSpinner();
  return (
    <div className="page page--download">
      <h1>{data.title}</h1>
      <div className="download-card card">
        <dl className="download-card__facts">
          <div>
            <dt>{t("download.fileName")}</dt>
            <dd className="download-card__name">{data.filename}</dd>
          </div>
          {data.size ? (
            <div>
              <dt>{t("download.size")}</dt>
              <dd>{data.size}</dd>
            </div>
          ) : null}
        </dl>
        {data.risky ? <p className="alert alert--warning">{t("download.warning")}</p> : null}
        <DownloadProgress downloading={downloading} filename={data.filename} />
        {data.downloadable ? (
          // a plain form: the browser itself receives the file (a client-side navigation could not)
          <form
            method="post"
            action={data.fileHref}
            className="download-card__actions"
            onSubmit={(event) => {
              if (downloading) event.preventDefault();
              else start();
            }}
          >
            <AuthenticityTokenInput />
            <button type="submit" className="button">
              {t("download.button")}
            </button>
            <Link to={data.cancelHref} className="button button--secondary">
              {t("download.cancel")}
            </Link>
          </form>
        ) : (
          <>
            <p className="alert alert--info">{t("download.notDownloadable")}</p>
            <p>
              <Link to={data.cancelHref} className="button button--secondary">
                {t("download.cancel")}
              </Link>
            </p>
          </>
        )}
      </div>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
