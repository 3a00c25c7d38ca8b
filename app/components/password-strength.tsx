import { useTranslation } from "~/components/translation";
import { useHydrated } from "~/components/hydrated";
import { passwordStrength, STRENGTH_LABEL_KEYS } from "~/lib/password-strength";

/**
 * spec 000 §5 and 002 §5: the password strength meter (Very Weak … Very Strong). It needs the
 * typed value, so it exists only while JavaScript runs; its text is a polite live region so a
 * screen reader hears the level change without losing its place. The bar is decoration. Until
 * JavaScript runs an invisible copy keeps its place, so the form's button does not move when it comes.
 */
export function PasswordStrength({
  id,
  password,
  username,
}: {
  id: string;
  password: string;
  username?: string | null;
}) {
  const { t } = useTranslation("security");
  const hydrated = useHydrated();
  const score = passwordStrength(password, { username });
  // Before hydration: the same meter, unseen and unheard, keeping its place (decision 105).
  const reserved = !hydrated;
  return (
    <div
      className={reserved ? "password-strength password-strength--reserved" : "password-strength"}
      id={reserved ? undefined : id}
      aria-hidden={reserved || undefined}
    >
      <div className="password-strength__bar" aria-hidden="true">
        {[0, 1, 2, 3, 4].map((n) => (
          <span
            key={n}
            className="password-strength__segment"
            style={{ background: password && n <= score ? STRENGTH_COLOURS[score] : "var(--colour-border)" }}
          />
        ))}
      </div>
      <p className="field__hint" aria-live={reserved ? undefined : "polite"}>
        {password ? t("strength.label", { level: t(STRENGTH_LABEL_KEYS[score]) }) : t("strength.empty")}
      </p>
    </div>
  );
}

// The theme's colours (decision 203), each at least 3:1 on the surface in both themes (WCAG 1.4.11).
const STRENGTH_COLOURS = [
  "var(--colour-error)",
  "var(--colour-error)",
  "var(--colour-warning)",
  "var(--colour-success)",
  "var(--colour-success)",
] as const;
