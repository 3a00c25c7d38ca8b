import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { getFixedT } from "~/session/i18next.server";
import {
  PREFERENCE_FIELDS,
  type Preferences,
  preferencesChanged,
  preferencesFromWire,
  preferencesToWire,
} from "~/lib/security";
import { logger } from "~/runtime/logger.server";
import { fetchPreferences, savePreferences } from "~/planning/security.server";
import { attempt } from "~/session/failures.server";
import { readForm } from "~/session/csrf.server";
import { requireClient, requireClientContext, requireUser, type SignedIn } from "~/session/guards.server";
import { updateSessionUser } from "~/session/session.server";
import { redirectWithToast } from "~/session/toast.server";
import { saveTheme } from "~/planning/session.server";
import { isTheme, themeOf } from "~/lib/theme";
import { THEME_INTENT, ThemeChoice } from "./theme-choice";
import { parseWithZod, PreferencesSchema } from "~/session/validation.server";
import { errorPageTitle } from "~/lib/error-title";

// spec 002 "Preferences": clients edit three communication preferences; an adviser with a client
// in context sees them read-only with a pointer to the planning platform. Save and Cancel are
// enabled only after a change (while JavaScript runs; always without it). docs/decisions/054.
// Below them, the user's own theme (docs/decisions/203), for advisers too.

export const handle = { i18n: ["security"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const context = await requireClientContext(request);
  const t = await getFixedT(request, "security");
  const loaded = await attempt(request, fetchPreferences(context.planning, context.entityId));
  if (!loaded.ok) {
    logger.error("preferences unavailable", { status: loaded.error.status });
    // spec 002 §8: the load failure is shown on the page.
    return json({
      title: t("preferences.title"),
      readOnly: context.isAdviser,
      theme: themeOf(context.user.theme),
      preferences: null,
      loadFailed: true,
    });
  }
  return json({
    title: t("preferences.title"),
    readOnly: context.isAdviser,
    theme: themeOf(context.user.theme),
    preferences: preferencesFromWire(loaded.value),
    loadFailed: false,
  });
}

type ActionData = { saveFailed: true; values: Preferences } | { themeSaveFailed: true };

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  const formData = await readForm(request);
  // docs/decisions/203: the theme is the user's own, an adviser's too (with a client in context, as the page)
  if (formData.get("intent") === THEME_INTENT)
    return themeAction(request, await requireClientContext(request), formData);
  // spec 002 §6: only the client role edits; advisers read only (Access Denied to a post).
  const { planning, user } = await requireClient(request);
  const submission = parseWithZod(formData, { schema: PreferencesSchema });
  if (submission.status !== "success") throw new Response("Bad request", { status: 400 });
  const saved = await attempt(request, savePreferences(planning, user.entityId, preferencesToWire(submission.value)));
  if (!saved.ok) {
    logger.error("preferences not saved", { status: saved.error.status });
    return json<ActionData>({ saveFailed: true, values: submission.value }, { status: saved.error.failure.status });
  }
  return redirectWithToast("/clients/preferences", { type: "success", title: "security:preferences.updated" });
}

async function themeAction(request: Request, { planning, user }: SignedIn, formData: FormData) {
  const theme = formData.get("theme");
  // the form always sends one of its options: anything else is not the form's
  if (!isTheme(theme)) throw new Response("Bad request", { status: 400 });
  const saved = await attempt(request, saveTheme(planning, theme));
  if (!saved.ok) {
    logger.error("theme not saved", { status: saved.error.status });
    return json<ActionData>({ themeSaveFailed: true }, { status: saved.error.failure.status });
  }
  const headers = { "Set-Cookie": await updateSessionUser(request, { ...user, theme: saved.value }) };
  return redirectWithToast("/clients/preferences", { type: "success", title: "security:theme.updated" }, { headers });
}

function ReadOnlyPreferences({ preferences }: { preferences: Preferences }) {
  const { t } = useTranslation("security");
  return (
    <>
      <p className="page__intro">{t("preferences.adviserReadOnly")}</p>
      <dl className="details-list">
        {PREFERENCE_FIELDS.map((field) => (
          <div className="details-list__row" key={field}>
            <dt>{t(`preferences.${field}`)}</dt>
            <dd>{preferences[field] ? t("preferences.yes") : t("preferences.no")}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function PreferencesForm({ initial, failedValues }: { initial: Preferences; failedValues: Preferences | null }) {
  const { t } = useTranslation("security");
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const [values, setValues] = useState<Preferences>(failedValues ?? initial);
  useEffect(() => setValues(failedValues ?? initial), [failedValues, initial]);
  const changed = preferencesChanged(values, initial);
  // Disabled until something changes, only once JavaScript runs (conventions "Forms").
  const disabled = (hydrated && !changed) || navigation.state === "submitting";
  return (
    <Form method="post" className="form">
      <AuthenticityTokenInput />
      <fieldset aria-describedby="preferences-hint">
        <legend>{t("preferences.legend")}</legend>
        <p id="preferences-hint" className="field__hint">
          {t("preferences.hint")}
        </p>
        {PREFERENCE_FIELDS.map((field) => (
          <div className="checkbox" key={field}>
            <input
              id={`preference-${field}`}
              type="checkbox"
              name={field}
              checked={values[field]}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                setValues((v) => ({ ...v, [field]: checked }));
              }}
            />
            <label htmlFor={`preference-${field}`}>{t(`preferences.${field}`)}</label>
          </div>
        ))}
      </fieldset>
      {hydrated && !changed ? (
        // spec 002: Save and Cancel wait for a change; say so beside them (WCAG 3.3.2)
        <p id="preferences-unchanged" className="field__hint">
          {t("preferences.unchanged")}
        </p>
      ) : null}
      <div className="button-group">
        <button
          type="submit"
          className="button"
          disabled={disabled}
          aria-describedby={hydrated && !changed ? "preferences-unchanged" : undefined}
        >
          {t("preferences.save")}
        </button>
        {hydrated ? (
          <button
            type="button"
            className="button button--secondary"
            disabled={disabled}
            aria-describedby={hydrated && !changed ? "preferences-unchanged" : undefined}
            onClick={() => setValues(initial)}
          >
            {t("preferences.cancel")}
          </button>
        ) : (
          // Without JavaScript, Cancel reloads the saved values.
          <Link to="/clients/preferences" className="button button--secondary" reloadDocument>
            {t("preferences.cancel")}
          </Link>
        )}
      </div>
    </Form>
  );
}

export default function PreferencesPage() {
  const { readOnly, preferences, loadFailed, theme } = useLoaderData<typeof loader>();
  const actionData = useActionData<ActionData>();
  const { t } = useTranslation("security");
  return (
    <div className="page page--preferences">
      <h1>{t("preferences.title")}</h1>
      {loadFailed ? (
        <div className="alert alert--error" role="alert">
          <p>{t("preferences.errors.load")}</p>
        </div>
      ) : null}
      {actionData && "saveFailed" in actionData ? (
        <div className="alert alert--error" role="alert">
          <p>{t("preferences.errors.save")}</p>
        </div>
      ) : null}
      {preferences && readOnly ? <ReadOnlyPreferences preferences={preferences} /> : null}
      {preferences && !readOnly ? (
        <PreferencesForm
          initial={preferences}
          failedValues={actionData && "values" in actionData ? actionData.values : null}
        />
      ) : null}
      <ThemeChoice
        theme={theme}
        forAdviser={readOnly}
        saveFailed={Boolean(actionData && "themeSaveFailed" in actionData)}
      />
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, error, matches }) => [
  { title: data ? `${data.title} | Client Online` : errorPageTitle(error, matches) },
];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
