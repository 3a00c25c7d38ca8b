import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/components/translation";
import { THEMES, type Theme } from "~/lib/theme";

// docs/decisions/203: the user's own theme, chosen with a plain form (no JavaScript needed) and
// kept on the platform, so the server draws every page in it from the first paint.

export const THEME_INTENT = "theme";

export function ThemeChoice({
  theme,
  forAdviser,
  saveFailed,
}: {
  theme: Theme;
  forAdviser: boolean;
  saveFailed: boolean;
}) {
  const { t } = useTranslation("security");
  return (
    <section className="theme-choice" aria-labelledby="theme-heading">
      <h2 id="theme-heading">{t("theme.heading")}</h2>
      {saveFailed ? (
        <div className="alert alert--error" role="alert">
          <p>{t("theme.errors.save")}</p>
        </div>
      ) : null}
      <Form method="post" className="form">
        <AuthenticityTokenInput />
        <fieldset aria-describedby="theme-hint">
          <legend>{t("theme.legend")}</legend>
          <p id="theme-hint" className="field__hint">
            {t(forAdviser ? "theme.hintAdviser" : "theme.hint")}
          </p>
          {THEMES.map((option) => (
            <div className="radio" key={option}>
              <input
                id={option === THEMES[0] ? "theme" : `theme-${option}`}
                type="radio"
                name="theme"
                value={option}
                defaultChecked={option === theme}
              />
              <label htmlFor={option === THEMES[0] ? "theme" : `theme-${option}`}>{t(`theme.${option}`)}</label>
            </div>
          ))}
        </fieldset>
        <button type="submit" className="button" name="intent" value={THEME_INTENT}>
          {t("theme.save")}
        </button>
      </Form>
    </section>
  );
}
