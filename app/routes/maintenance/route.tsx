import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { isUnderMaintenance } from "~/planning/maintenance.server";
import { getSite } from "~/planning/site.server";
import { sanitiseTextPage } from "~/lib/sanitise.server";
import { errorPageTitle } from "~/lib/error-title";

// spec 000 §2 "Maintenance page at /maintenance": heading and HTML from the site content page
// `maintenance`, sanitised like every text page. Shown only while the platform is in maintenance;
// otherwise the visitor goes back into the portal (docs/decisions/061).
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await isUnderMaintenance())) throw redirect("/", { headers: { "Cache-Control": "no-store" } });
  const locale = await resolveLocale(request);
  const [site, t] = await Promise.all([getSite(locale), getFixedT(request, "session")]);
  const page = Object.hasOwn(site.pages, "maintenance") ? site.pages.maintenance : undefined;
  const html = page?.html ? sanitiseTextPage(page.html) : "";
  return json(
    {
      title: page?.title || t("maintenance.title"),
      html: html.trim() ? html : `<p>${escapeHtml(t("maintenance.text"))}</p>`,
    },
    // 503 tells crawlers and monitors the outage is temporary.
    { status: 503, headers: { "Retry-After": "300", "Cache-Control": "no-store" } },
  );
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export default function MaintenancePage() {
  const { title, html } = useLoaderData<typeof loader>();
  return (
    <article className="text-page">
      <h1>{title}</h1>
      <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
    </article>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data?.title ? `${data.title} – Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
