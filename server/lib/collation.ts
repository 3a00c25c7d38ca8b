// Decision 120: names (securities, portfolios, advisers, categories) sort as people read them:
// 'iShares…' before 'Vanguard…', 'Émile' beside 'Emile', 'Fund 2' before 'Fund 10'. One collator
// for the platform; its answers serve every locale, so it sorts by the root order ("en" is CLDR's
// root for these scripts), and the portal sorts what it shows again by the page's locale.
const NAMES = new Intl.Collator("en", { sensitivity: "base", numeric: true });

/** Compares two names for sorting (a `sort` comparator). */
export const compareNames = (a: string, b: string): number => NAMES.compare(a, b);
