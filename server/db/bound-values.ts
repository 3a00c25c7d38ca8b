// The platform's statements are planned once, whatever values are bound to them
// (docs/decisions/160-platform-statements-planned-once.md).
//
// SQLite looks at a bound value while it plans a statement in a few places: `x = ?` in a query it
// plans in full (a join, an EXISTS, an ORDER BY it must sort for), `LIMIT ?`, `LIKE ?`, and a
// partial index's condition. It then marks the parameter, and a statement whose marked parameter is
// bound again, or whose bindings are cleared, is prepared again on its next step: better-sqlite3
// clears a statement's bindings after every call, so such a statement was parsed and planned anew
// on every call (the session lookup's three-table join: 50–60 µs a call, 10 µs planned once). Written `+?`, a
// parameter is an expression SQLite does not look into (`sqlite3ExprIsInteger` and the comparison
// of a variable with a literal both stop at a unary plus), and the plan stays the one made once.
//
// The unary plus changes no value: SQLite's `+x` is `x` (no conversion of text to a number), and
// neither `?` nor `+?` has an affinity, so each comparison applies the same affinity as before.

/**
 * What a statement's text is made of, as far as its parameters go: a string literal, a quoted name
 * ("…", `…`, […]), a comment (each copied whole), or a parameter (captured): `?`, `?NNN`, or `:`,
 * `@` or `$` and a name, not inside a name (SQLite's names may hold a `$`).
 */
const PARTS = /'[^']*'|"[^"]*"|`[^`]*`|\[[^\]]*\]|--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|(\?\d*|(?<![\w$])[:@$][A-Za-z_]\w*)/g;

/**
 * `source` with a unary plus before every bound parameter (`?`, `?NNN`, `:name`, `@name`,
 * `$name`) outside string literals, quoted names and comments.
 */
export function parametersAsPlainValues(source: string): string {
  return source.replace(PARTS, (part, parameter: string | undefined) => (parameter ? `+${parameter}` : part));
}
