// The error summary of a form, a field's error and a failed platform call's alert (conventions
// "Forms"), on their own so that a page with a small form, or none, does not load the form library to
// show them (decision 148).
import { useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import type { Failure } from "~/lib/error-catalogue";

export type SummaryError = { fieldId: string; message: string };

/**
 * conventions "Forms": after a failed submit, a heading and one link per failing field at the top
 * of the form, in an alert container. It takes the focus only in answer to a submit (issue 25 item
 * 1, WCAG 3.2.2 and 2.4.3): once the errors of that submit show, whether the browser found them or
 * the server answered with them, or when the page arrives with them (the server's answer to a post).
 * Errors that come and go as the user types or leaves a field never move the focus.
 */
export function ErrorSummary({ errors }: { errors: SummaryError[] }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const navigation = useNavigation();
  const signature = errors.map((e) => `${e.fieldId}:${e.message}`).join("|");
  // The form sent and not yet answered; `true` on the first render: a page that arrives with
  // errors is the answer to a post.
  const awaiting = useRef<HTMLFormElement | true | null>(true);
  const [submits, setSubmits] = useState(0);
  // whether the post or search of the form sent went out (its answer then ends the wait)
  const travelled = useRef(false);
  const navigationIdle = useRef(true);
  navigationIdle.current = navigation.state === "idle";
  useEffect(() => {
    const sent = (event: Event) => {
      if (!(event.target instanceof HTMLFormElement)) return;
      awaiting.current = event.target;
      travelled.current = false;
      setSubmits((n) => n + 1);
    };
    // typing after a submit that got no errors: what the user types is checked, not answered
    const typed = () => {
      if (navigationIdle.current && awaiting.current !== true) awaiting.current = null;
    };
    document.addEventListener("submit", sent, true);
    document.addEventListener("input", typed, true);
    return () => {
      document.removeEventListener("submit", sent, true);
      document.removeEventListener("input", typed, true);
    };
  }, []);
  useEffect(() => {
    const sent = awaiting.current;
    if (!sent) return;
    if (navigation.state !== "idle") {
      travelled.current = true;
      return;
    }
    if (signature && ref.current) {
      const own = ref.current.closest("form");
      if (sent === true || !own || own === sent) ref.current.focus();
    } else if (!travelled.current && sent !== true) {
      // refused in the browser: its errors are on their way
      return;
    }
    awaiting.current = null;
    travelled.current = false;
  }, [signature, submits, navigation.state]);
  if (!errors.length) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title" tabIndex={-1} ref={ref}>
      <h2 id="error-summary-title" className="error-summary__title">
        {t("common:form.errorSummaryTitle")}
      </h2>
      <ul className="error-summary__list">
        {errors.map((e) => (
          <li key={e.fieldId}>
            <a href={`#${e.fieldId}`}>{t(e.message)}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A field's errors, translated, after a visually hidden 'Error:'. */
export function FieldError({ id, errors }: { id: string; errors: string[] }) {
  const { t } = useTranslation();
  return (
    <p id={id} className="field__error">
      <span className="visually-hidden">{t("common:form.errorPrefix")} </span>
      {errors.map((e) => t(e)).join(" ")}
    </p>
  );
}

/** A failed platform call shown above a form (the user's input stays in the form). */
export function FailureAlert({ failure }: { failure: Failure | null | undefined }) {
  const { t } = useTranslation();
  if (!failure) return null;
  if (failure.kind === "network") {
    return (
      <div className="alert alert--error" role="alert">
        <p className="alert__title">{t("common:errors.network.title")}</p>
        <p>{t("common:errors.network.text")}</p>
      </div>
    );
  }
  return (
    <div className="alert alert--error" role="alert">
      <p className="alert__title">{t("common:errors.generic.title")}</p>
      {failure.detail ? <p>{failure.detail}</p> : null}
      <p>{t("common:errors.generic.text")}</p>
    </div>
  );
}
