/** Where a page's texts name the methods: the sign-in steps (auth) or the account page (security). */
export type MethodNames = "steps.method" | "verification.method";

/**
 * spec 000 §4: the name of an additional verification method as a page shows it. A step that names
 * no method is the authenticator app (the software token), which sends no code.
 */
export function methodName(t: (key: string) => string, names: MethodNames, method: string | null): string {
  return t(`${names}.${method ?? "token"}`);
}

/** A method's name with where its codes go, in brackets, when there is such a place. */
export function methodLabel(
  t: (key: string) => string,
  names: MethodNames,
  option: { method: string | null; destination?: string | null },
): string {
  const name = methodName(t, names, option.method);
  return option.destination ? `${name} (${option.destination})` : name;
}
