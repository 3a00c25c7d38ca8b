// The income tab (issue 41, docs/decisions/199-income-received.md): income received in the last 24
// months or a tax year, its chart (drawn on the server) and the table per account and holding.
import { ChartFigure } from "~/components/charts/chart-figure";
import { SegmentedLinks } from "~/components/segmented-links";
import { TableRegion } from "~/components/table-region";
import { useTranslation } from "~/components/translation";
import type { IncomeView } from "./income.server";

type Shown = Extract<IncomeView, { state: "ok" }>;

/** Per account (a row group with its total) and holding, with the period's total. */
function IncomeTable({ view }: { view: Shown }) {
  const { t } = useTranslation("clients");
  return (
    <TableRegion captionId="income-caption" className="income__table">
      <table>
        <caption id="income-caption">{t("analysis.income.caption", { period: view.heading })}</caption>
        <thead>
          <tr>
            <th scope="col">{t("analysis.income.columns.holding")}</th>
            <th scope="col">{t("analysis.income.columns.code")}</th>
            <th scope="col">{t("analysis.income.columns.currency")}</th>
            <th scope="col" className="numeric">
              {t("analysis.income.columns.native")}
            </th>
            <th scope="col" className="numeric">
              {t("analysis.income.columns.income", { currency: view.reportCurrency })}
            </th>
          </tr>
        </thead>
        {view.accounts.map((account) => (
          <tbody key={account.name}>
            <tr className="income__account">
              <th scope="rowgroup" colSpan={4}>
                {account.name}
              </th>
              <td className="numeric">{account.total}</td>
            </tr>
            {account.holdings.map((h) => (
              <tr key={`${h.code}-${h.currency}`}>
                <th scope="row" className="income__holding">
                  {h.name}
                </th>
                <td>{h.code}</td>
                <td>{h.currency}</td>
                <td className="numeric">{h.native}</td>
                <td className="numeric">{h.converted}</td>
              </tr>
            ))}
          </tbody>
        ))}
        <tfoot>
          <tr className="income__grand-total">
            <th scope="row" colSpan={4}>
              {t("analysis.income.totalRow")}
            </th>
            <td className="numeric">{view.total}</td>
          </tr>
        </tfoot>
      </table>
    </TableRegion>
  );
}

export function IncomePanel({ view }: { view: IncomeView }) {
  const { t } = useTranslation("clients");
  if (view.state === "error") return <p className="alert alert--warning">{t("analysis.income.error")}</p>;
  return (
    <div className="income">
      <p className="page__meta">
        {view.yearRule} {t("analysis.income.rangeNote")}
      </p>
      <SegmentedLinks
        label={t("analysis.income.periodLabel")}
        options={view.periods}
        visibleLabel
        className="segmented income__periods"
      />
      <h3 id="income-heading">{view.heading}</h3>
      <dl className="income__total">
        <dt>{t("analysis.income.total")}</dt>
        <dd>{view.total}</dd>
      </dl>
      {view.byCurrency.length ? (
        <>
          <p id="income-currencies-heading">{t("analysis.income.byCurrency")}</p>
          <ul className="income__currencies" aria-labelledby="income-currencies-heading">
            {view.byCurrency.map((x) => (
              <li key={x.currency}>
                {x.currency}: {x.amount}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <p className="page__meta">{t("analysis.income.basis", { currency: view.reportCurrency })}</p>
      <p className="transactions__toolbar">
        <a href={view.csv} className="button button--secondary" download>
          {t("analysis.download.csv")}
        </a>
      </p>
      <ChartFigure
        id="income-chart"
        caption={view.chart.caption}
        svg={view.chart.svg}
        narrowSvg={view.chart.narrowSvg}
        table={view.chart.table}
        tableSummary={t("analysis.chart.showTable")}
      />
      {view.accounts.length ? (
        <IncomeTable view={view} />
      ) : (
        <p className="alert alert--info">{t("analysis.income.empty")}</p>
      )}
    </div>
  );
}
