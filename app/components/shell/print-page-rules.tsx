import { useTranslation } from "~/components/translation";
import { printPageRules } from "~/lib/print";
import { useShellData } from "./root-data";

/**
 * The printed page's running header (issue 25 item 20, decision 117): the client's name and the
 * date on every page, as `@page` margin boxes; the screen never sees them. The date comes written
 * from the root loader, so that no date library joins every page's first load.
 */
export function PrintPageRules({ name }: { name: string }) {
  const { t } = useTranslation();
  const date = useShellData()?.printedOn;
  if (!date) return null;
  const printed = t("print.printedOn", { date });
  return <style media="print" dangerouslySetInnerHTML={{ __html: printPageRules({ name, printed }) }} />;
}
