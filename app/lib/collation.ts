// Decision 120: one collation for names everywhere the portal sorts them (securities, message
// types, anything listed by name): the page's locale, case and accents set aside unless they are
// all that differs ('iShares…' before 'Vanguard…'), numbers in their order ('Fund 2' before
// 'Fund 10'). The platform sorts its answers the same way (server/lib/collation.ts).

const collators = new Map<string, Intl.Collator>();

/** The locale's collator for names, made once per locale. */
export function nameCollator(locale: string): Intl.Collator {
  let collator = collators.get(locale);
  if (!collator) {
    let known = "en";
    try {
      known = Intl.Collator.supportedLocalesOf([locale])[0] ?? "en";
    } catch {
      // not a well-formed locale: English
    }
    collator = new Intl.Collator(known, { sensitivity: "base", numeric: true });
    collators.set(locale, collator);
  }
  return collator;
}

/** A `sort` comparator of things by their name in the locale. */
export function byName<T>(locale: string, nameOf: (item: T) => string): (a: T, b: T) => number {
  const { compare } = nameCollator(locale);
  return (a, b) => compare(nameOf(a), nameOf(b));
}
