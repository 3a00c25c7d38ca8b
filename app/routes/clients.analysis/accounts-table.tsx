// spec 001 §2.3 accounts summary table: name, current value, fund performance, change in value and
// a chevron; each row drills down (portfolio or group → its accounts → one account).
import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { FigureText, PerformanceText } from "~/components/figures";
import type { AccountsTab } from "./analysis.server";
import { TableRegion } from "~/components/table-region";

export function AccountsTable({ tab }: { tab: AccountsTab }) {
  const { t } = useTranslation("clients");
  const empty = tab.sections.every((s) => s.rows.length === 0);
  if (empty) return <p className="alert alert--info">{t("analysis.accounts.empty")}</p>;
  const showPerformance = tab.sections.some((s) => s.rows.some((r) => "performance" in r));
  return (
    <>
      {tab.sections.map((section, index) => {
        const captionId = `analysis-accounts-${index}-caption`;
        return (
          <TableRegion key={section.heading} captionId={captionId}>
            <table className={`accounts-table accounts-table--${tab.collection}`}>
              <caption id={captionId} className="accounts-table__caption">
                {section.heading}
                {section.note ? <span className="accounts-table__note">{section.note}</span> : null}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{t(`analysis.accounts.columns.${tab.collection}`)}</th>
                  <th scope="col" className="numeric">
                    {t("analysis.accounts.columns.value")}
                  </th>
                  {showPerformance ? (
                    <th scope="col" className="numeric accounts-table__optional">
                      {t("analysis.accounts.columns.performance")}
                    </th>
                  ) : null}
                  <th scope="col" className="numeric accounts-table__optional">
                    {t("analysis.accounts.columns.movement")}
                  </th>
                  <th scope="col" className="accounts-table__chevron">
                    <span className="visually-hidden">{t("analysis.accounts.columns.open")}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {section.rows.map((row) => (
                  <tr key={row.key} className="accounts-table__row">
                    <th scope="row">
                      <Link to={row.href} className="accounts-table__link">
                        {row.name}
                      </Link>
                      {row.accountCount !== null ? (
                        <span className="accounts-table__count">
                          {" "}
                          {t("analysis.accounts.count", { count: row.accountCount })}
                        </span>
                      ) : null}
                    </th>
                    <td className="numeric">{row.value}</td>
                    {showPerformance ? (
                      <td className="numeric accounts-table__optional">
                        {"performance" in row ? <PerformanceText performance={row.performance ?? null} /> : null}
                      </td>
                    ) : null}
                    <td className="numeric accounts-table__optional">
                      <FigureText figure={row.movement} />
                    </td>
                    <td className="accounts-table__chevron" aria-hidden="true">
                      <svg width="10" height="16" viewBox="0 0 10 16" focusable="false">
                        <path d="M2 2l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2" />
                      </svg>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        );
      })}
    </>
  );
}
