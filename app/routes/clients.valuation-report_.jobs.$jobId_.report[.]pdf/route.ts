import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { REPORT_FILE_NAME, REPORTS_PATH } from "~/lib/valuation-report";
import { pollReportJob } from "~/planning/reports.server";
import { orFail } from "~/session/failures.server";
import { requireClientContext, requireSiteAccess } from "~/session/guards.server";

// spec 002 §9: the finished report downloads as report.pdf, through the portal (the user's own
// session; the platform's address never reaches the browser). Not ready yet: back to its page.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  requireSiteAccess(context, ["Portfolio", "Assets"]);
  const jobId = params.jobId ?? "";
  const job = await orFail(request, pollReportJob(context.planning, jobId));
  if (job.state !== "ready")
    return redirect(`${REPORTS_PATH}/jobs/${encodeURIComponent(jobId)}${new URL(request.url).search}`);
  return new Response(job.file.body, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${REPORT_FILE_NAME}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
