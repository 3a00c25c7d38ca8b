import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { toSupportedLocale } from "~/lib/i18n";
import { resources } from "~/locales/resources";
import { localesVersion } from "~/locales/version.server";

// The browser's copy of one locale's texts (entry.client), cached for as long as they are unchanged.
export async function loader({ params, request }: LoaderFunctionArgs) {
  const locale = toSupportedLocale(params.lng);
  if (!locale || locale !== params.lng) throw json({ notFound: true }, { status: 404 });
  const versioned = new URL(request.url).searchParams.get("v") === localesVersion;
  return json(resources[locale], {
    headers: { "Cache-Control": versioned ? "public, max-age=31536000, immutable" : "public, max-age=300" },
  });
}
