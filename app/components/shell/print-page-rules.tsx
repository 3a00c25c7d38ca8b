import { useTranslation } from "~/components/translation";
import { formatDate } from "~/lib/format";
import { printPageRules } from "~/lib/print";
import { todayIn } from "~/lib/valuation-report";

/**
 * The printed page's running header (issue 25 item 20, decision 117): the client's name and the
 * date on every page, as `@page` margin boxes; the screen never sees them.
 */
export function PrintPageRules({ name }: { name: string }) {
  const { t, i18n } = useTranslation();
  const printed = t("print.printedOn", { date: formatDate(todayIn(null), i18n.language) });
  // the date may differ between the server's render and the browser's around midnight
  return <style media="print" suppressHydrationWarning dangerouslySetInnerHTML={{ __html: printPageRules({ name, printed }) }} />;
}
