import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getFixedT, resolveLocale } from "~/session/i18next.server";
import { formatDate } from "~/lib/format-date.server";
import { type DetailItem, toPersonalDetailsView } from "./personal-details";
import { orFail } from "~/session/failures.server";
import { fetchPersonalDetails } from "~/planning/entity.server";
import { requireClientContext } from "~/session/guards.server";
import { errorPageTitle } from "~/lib/error-title";

export const handle = { i18n: ["clients"] };

// spec 002 "Personal details": read-only; the intro panel is for clients only.
export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  const [locale, t] = await Promise.all([resolveLocale(request), getFixedT(request, "clients")]);
  const answer = await orFail(request, fetchPersonalDetails(context.planning, context.entityId));
  const view = toPersonalDetailsView(answer, {
    locale,
    formatLongDate: (iso) => formatDate(iso, locale, "long"),
  });
  return json({ title: t("personalDetails.title"), showIntro: !context.isAdviser, ...view });
}

function DetailList({ items, idPrefix }: { items: DetailItem[]; idPrefix: string }) {
  const { t } = useTranslation("clients");
  return (
    <dl className="details-list">
      {items.map((item) => (
        <div className="details-list__row" key={item.id} id={`${idPrefix}-${item.id}`}>
          <dt>{t(item.label)}</dt>
          {item.values.length === 0 ? (
            <dd className="details-list__empty">{t("personalDetails.noneSupplied")}</dd>
          ) : (
            item.values.map((value) => (
              <dd key={value.text}>
                {value.href ? <a href={value.href}>{value.text}</a> : value.text}
                {value.preferred ? <span className="details-list__tag"> {t("personalDetails.preferred")}</span> : null}
              </dd>
            ))
          )}
        </div>
      ))}
    </dl>
  );
}

export default function PersonalDetails() {
  const data = useLoaderData<typeof loader>();
  const { t } = useTranslation("clients");
  return (
    <div className="page page--personal-details">
      <h1>{t("personalDetails.title")}</h1>
      {data.showIntro ? (
        <div className="panel">
          <p>{t("personalDetails.intro")}</p>
        </div>
      ) : null}
      <section aria-labelledby="personal-heading" className="details-section">
        <h2 id="personal-heading">{t("personalDetails.personalHeading")}</h2>
        <DetailList items={data.personal} idPrefix="personal" />
      </section>
      <section aria-labelledby="contacts-heading" className="details-section">
        <h2 id="contacts-heading">{t("personalDetails.contactsHeading")}</h2>
        <DetailList items={data.contacts} idPrefix="contact" />
      </section>
      <section aria-labelledby="addresses-heading" className="details-section">
        <h2 id="addresses-heading">{t("personalDetails.addressesHeading")}</h2>
        <dl className="details-list">
          {data.addresses.map((address) => (
            <div className="details-list__row" key={address.id} id={address.id}>
              <dt>{t(address.label)}</dt>
              <dd className={address.lines.length ? undefined : "details-list__empty"}>
                {address.lines.length ? (
                  <div className="address">
                    {address.lines.map((line, i) => (
                      <span className="address__line" key={`${i}-${line}`}>
                        {line}
                      </span>
                    ))}
                  </div>
                ) : (
                  t("personalDetails.noneSupplied")
                )}
              </dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
