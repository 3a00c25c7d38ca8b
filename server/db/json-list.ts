// A list of values as one statement parameter (docs/decisions/131-portfolio-statements-prepared-once.md):
// `column IN (?, ?, …)` is a new statement for every length of list, built and prepared again on
// every call; `column IN (SELECT value FROM json_each(?))` is one statement, prepared once, that is
// given the list as a JSON array and still finds the rows through the column's index.
import { type SQL, type SQLWrapper, sql } from "drizzle-orm";

/** `column IN` the JSON array bound to the placeholder `name` (bind it with `jsonList`). */
export function inJsonList(column: SQLWrapper, name: string): SQL {
  return sql`${column} in (select value from json_each(${sql.placeholder(name)}))`;
}

/** The value to bind to an `inJsonList` placeholder. */
export const jsonList = (values: readonly (number | string)[]): string => JSON.stringify(values);
