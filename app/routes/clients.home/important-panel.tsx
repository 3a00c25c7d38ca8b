import { Link } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import type { ImportantPanelData } from "./important-panel.server";

// spec 001 §2.1: the important-messages panel on the clients home, before the portfolio view.
export function ImportantPanel({ panel }: { panel: ImportantPanelData | null | undefined }) {
  const { t } = useTranslation("messages");
  if (!panel) return null;
  return (
    <section className="important-panel" aria-labelledby="important-panel-heading">
      <h2 id="important-panel-heading">{t("important.heading")}</h2>
      <ul className="important-panel__list">
        {panel.important ? (
          <li>
            {t("important.unread", { number: panel.important.count })}{" "}
            <Link to={panel.important.href}>{t("important.link")}</Link>
          </li>
        ) : null}
        {panel.toBeSigned ? (
          <li>
            {t("important.toBeSigned", { number: panel.toBeSigned.count })}{" "}
            <Link to={panel.toBeSigned.href}>{t("important.signLink")}</Link>
          </li>
        ) : null}
      </ul>
    </section>
  );
}
