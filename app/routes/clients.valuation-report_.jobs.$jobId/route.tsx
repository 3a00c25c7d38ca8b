import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "~/components/translation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { cleanServerMessage } from "~/lib/error-catalogue";
import { POLL_INTERVAL_MS, REPORT_FILE_NAME, REPORTS_PATH, waitedTooLong } from "~/lib/valuation-report";
import { pollReportJob } from "~/planning/reports.server";
import { orFail } from "~/session/failures.server";
import { requireClientContext, requireSiteAccess } from "~/session/guards.server";
import { getFixedT } from "~/session/i18next.server";
import jobStyles from "./job.css";
import { errorPageTitle } from "~/lib/error-title";

// spec 002 §4 "Report run", §8, §9 (docs/decisions/099-valuation-reports.md): the job's own page.
// While it runs: 'We are generating your portfolio report'; with JavaScript the page asks again
// every 3 seconds, without it the document's Refresh header reloads it a few times and then stops and
// says so, with 'Check again now' to look again (WCAG 2.2.2: a page does not reload itself without
// end). Then the file, a failure, or the end of a 5-minute wait, each with a way on.

export const handle = { i18n: ["reports"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: jobStyles }];

type JobView =
  | { state: "pending"; stoppedChecking: boolean }
  | { state: "ready"; downloadHref: string }
  | { state: "failed"; message: string | null }
  | { state: "timedOut" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  requireSiteAccess(context, ["Portfolio", "Assets"]);
  const t = await getFixedT(request, "reports");
  const jobId = params.jobId ?? "";
  const url = new URL(request.url);
  // the wait is timed from the run's post (the portal's own clock), kept in the URL
  const started = Number(url.searchParams.get("started"));
  // the reloads without JavaScript so far, kept in the URL the Refresh header leads to
  const checks = automaticChecksOf(url.searchParams.get("checks"));
  url.searchParams.delete("checks");
  const self = `${url.pathname}${url.search}`;
  url.searchParams.delete("started");
  const search = url.search;
  const job = await orFail(request, pollReportJob(context.planning, jobId));
  let view: JobView;
  if (job.state === "ready") {
    // the file is fetched again by the download route; this answer's body is not needed
    await job.file.body?.cancel();
    view = {
      state: "ready",
      downloadHref: `${REPORTS_PATH}/jobs/${encodeURIComponent(jobId)}/${REPORT_FILE_NAME}${search}`,
    };
  } else if (job.state === "failed") {
    view = { state: "failed", message: cleanServerMessage(job.message) };
  } else {
    const since = Number.isFinite(started) && started > 0 ? new Date(started).toISOString() : job.createdAt;
    view = waitedTooLong(since, Date.now())
      ? { state: "timedOut" }
      : { state: "pending", stoppedChecking: checks >= AUTOMATIC_CHECKS };
  }
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  // without JavaScript the page asks again by itself a few times: the browser reloads it after 3 seconds
  if (view.state === "pending" && !view.stoppedChecking) {
    headers.set("Refresh", `${POLL_INTERVAL_MS / 1000}; url=${withChecks(self, checks + 1)}`);
  }
  return json(
    {
      title: t("title"),
      view,
      again: `${REPORTS_PATH}${search}`,
      // 'Check again now' looks again and starts the reloads afresh
      self,
    },
    { headers },
  );
}

/** How many times the page reloads itself without JavaScript (about 30 seconds) before it stops and says so. */
const AUTOMATIC_CHECKS = 10;

function automaticChecksOf(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? Math.min(n, AUTOMATIC_CHECKS) : 0;
}

function withChecks(path: string, checks: number): string {
  const url = new URL(path, "http://portal.invalid");
  url.searchParams.set("checks", String(checks));
  return `${url.pathname}${url.search}`;
}

/** The document carries the loader's Refresh (a client-side navigation never reads it: it polls instead). */
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const out = new Headers({ "Cache-Control": "private, no-store" });
  const refresh = loaderHeaders.get("Refresh");
  if (refresh) out.set("Refresh", refresh);
  return out;
};

/** With JavaScript: ask again every 3 seconds while the job runs (spec 002 §9). */
function usePolling(pending: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!pending) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") revalidator.revalidate();
    }, POLL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [pending, revalidator]);
}

export default function ReportJob() {
  const { view, again, self } = useLoaderData<typeof loader>() as unknown as {
    view: JobView;
    again: string;
    self: string;
  };
  const { t } = useTranslation("reports");
  usePolling(view.state === "pending");
  return (
    <article className="report-job">
      <h1>{t("title")}</h1>
      {view.state === "pending" ? (
        <>
          <div role="status" className="report-job__status">
            <p className="report-job__title">{t("job.generating")}</p>
            <p>{t("job.wait")}</p>
            {view.stoppedChecking ? <p>{t("job.stoppedChecking")}</p> : null}
          </div>
          <progress className="report-job__progress" aria-label={t("job.progress")} />
          <p>
            <a href={self}>{t("job.checkAgain")}</a>
          </p>
        </>
      ) : null}
      {view.state === "ready" ? (
        <>
          <div role="status" className="alert alert--success">
            <p className="alert__title">{t("job.ready")}</p>
          </div>
          <p>
            <a href={view.downloadHref} download={REPORT_FILE_NAME} className="button">
              {t("job.download")}
            </a>
          </p>
          <p>
            <Link to={again}>{t("job.another")}</Link>
          </p>
        </>
      ) : null}
      {view.state === "failed" || view.state === "timedOut" ? (
        <>
          <div role="alert" className="alert alert--error">
            <p className="alert__title">{t(view.state === "failed" ? "job.failed" : "job.timedOut")}</p>
            {view.state === "failed" && view.message ? <p>{view.message}</p> : null}
            <p>{t("job.tryAgainText")}</p>
          </div>
          <p>
            <Link to={again} className="button">
              {t("job.tryAgain")}
            </Link>
          </p>
        </>
      ) : null}
    </article>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => {
  const title = (data as { title?: string } | undefined)?.title;
  return [{ title: title ? `${title} – Client Online` : errorPageTitle(error, matches) }];
};

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
