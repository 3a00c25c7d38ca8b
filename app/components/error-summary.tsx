// The error summary of a form, a field's error and a failed platform call's alert (conventions
// "Forms"), on their own so that a page with a small form, or none, does not load the form library to
// show them (decision 148).
import { useNavigation } from "@remix-run/react";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import type { Failure } from "~/lib/error-catalogue";

/**
 * One error of the summary: an i18n key (with its values), or a text already written (`asWritten`,
 * the site's own message); linked to its field, or, for an error of the whole form (refused
 * credentials without a field, a disabled account), a line without a link.
 */
export type SummaryError = {
  fieldId: string | null;
  message: string;
  asWritten?: boolean;
  params?: Record<string, string | number>;
};

// GOV.UK's validation pattern (issue 40, docs/decisions/194): a page that shows errors says so first
// in its title, 'Error: ' before the page's own, which screen readers read before anything else. A
// page shows errors when an error summary on it lists any. The server renders the title (the
// head) before the summary (the body): the page's stream writes the prefix into the title of a
// page whose shell holds a summary (app/runtime/page-stream.server.ts). The browser hydrates the
// title without it (app/entry.client.tsx takes it off first, so that the title is what the routes'
// `meta` render); the summaries put it back, and take it off once none lists errors.

/** The prefix of the title of a page that shows errors: 'Error: ' in the user's language. */
export const errorTitlePrefix = (t: (key: string) => string) => `${t("common:form.errorPrefix")} `;

// The summaries on the page that list errors, in the browser.
let listing = 0;

/** The title with or without the prefix: React writes the title's text, the summaries its start. */
function titlePrefixed(prefix: string, on: boolean) {
  const text = document.querySelector("title")?.firstChild;
  const value = text?.nodeValue ?? "";
  if (text && value.startsWith(prefix) !== on) text.nodeValue = on ? prefix + value : value.slice(prefix.length);
}

// In the browser before the page is painted (nothing to do on the server).
const useBrowserLayoutEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/** A summary's errors, when it lists any, make the page's title start with 'Error: '. */
function useErrorsInTitle(listsErrors: boolean, prefix: string) {
  // after every render: a navigation may have written the title again
  useBrowserLayoutEffect(() => {
    if (!listsErrors) return;
    listing += 1;
    titlePrefixed(prefix, true);
    return () => {
      listing -= 1;
      // once the commit is done: the summary may be rendering again
      queueMicrotask(() => listing || titlePrefixed(prefix, false));
    };
  });
}

/**
 * conventions "Forms" and GOV.UK's error summary (issue 40, docs/decisions/194): after a failed
 * submit, at the top of the page's `main`, above its `h1`, a heading and one link per failing field.
 * The alert is a child of the element that takes the focus: announcing and focusing one element
 * races in some screen readers (GOV.UK Frontend 4.4). The summary is focusable only while it has
 * the focus (a click inside it does not take it there), and while it lists errors the page's title
 * starts with 'Error: ' (app/components/error-title.tsx).
 *
 * It takes the focus only in answer to a submit (issue 25 item 1, WCAG 3.2.2 and 2.4.3): once the
 * errors of that submit show, whether the browser found them or the server answered with them, or
 * when the page arrives with them (the server's answer to a post). Errors that come and go as the
 * user types or leaves a field never move the focus. On a page with several forms, `formId` names
 * the summary's own: only a submit of that form moves the focus to it.
 */
export function ErrorSummary({ errors, formId }: { errors: SummaryError[]; formId?: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const navigation = useNavigation();
  useErrorsInTitle(errors.length > 0, errorTitlePrefix(t));
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
      if (sent === true || !formId || sent.id === formId) focusSummary(ref.current);
    } else if (!travelled.current && sent !== true) {
      // refused in the browser: its errors are on their way
      return;
    }
    awaiting.current = null;
    travelled.current = false;
  }, [signature, submits, navigation.state, formId]);
  if (!errors.length) return null;
  return (
    <div className="error-summary" ref={ref}>
      <div role="alert">
        <h2 className="error-summary__title">{t("common:form.errorSummaryTitle")}</h2>
        <ul className="error-summary__list">
          {errors.map((e) => {
            const text = e.asWritten ? e.message : t(e.message, e.params);
            return <li key={e.fieldId ?? text}>{e.fieldId ? <a href={`#${e.fieldId}`}>{text}</a> : text}</li>;
          })}
        </ul>
      </div>
    </div>
  );
}

/** GOV.UK's `setFocus`: focusable while it has the focus, and not once it has left. */
function focusSummary(summary: HTMLElement) {
  summary.setAttribute("tabindex", "-1");
  summary.addEventListener("blur", () => summary.removeAttribute("tabindex"), { once: true });
  summary.focus();
}

/**
 * GOV.UK's error message, the one in the portal: a field's errors beside it, each an i18n key,
 * after a visually hidden 'Error:' (the field names it with `aria-describedby`). Nothing when the
 * field has none.
 */
export function FieldError({ id, errors }: { id: string; errors: ReadonlyArray<string | null | undefined> }) {
  const { t } = useTranslation();
  const messages = errors.filter(Boolean) as string[];
  if (!messages.length) return null;
  return (
    <p id={id} className="field__error">
      <span className="visually-hidden">{t("common:form.errorPrefix")} </span>
      {messages.map((e) => t(e)).join(" ")}
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
