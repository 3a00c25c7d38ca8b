import type { Submission } from "@conform-to/react";
import type { parseWithZod } from "@conform-to/zod";
import { useEffect, useState } from "react";
import type { input, output, ZodTypeAny } from "zod";

type ValidateOn = "onSubmit" | "onBlur" | "onInput";
type OnValidate<S extends ZodTypeAny> = (context: { formData: FormData }) => Submission<input<S>, string[], output<S>>;

/**
 * A schema's checks, with Conform's zod parser (which the hook below loads after the page). With
 * `only`, the schema checks only posts whose `intent` (the submit button's value) is `only.intent`;
 * other buttons of the form (Return to login, Request new code) always go through.
 */
export function browserValidation<S extends ZodTypeAny>(
  parse: typeof parseWithZod,
  schema: S,
  only?: { intent: string; anything: ZodTypeAny },
): { onValidate: OnValidate<S>; isValid: (formData: FormData) => boolean } {
  const forPost = (formData: FormData) =>
    parse(formData, { schema: !only || formData.get("intent") === only.intent ? schema : (only.anything as S) });
  // The button's test reads the fields alone (no submitter, so no intent): always the schema.
  return {
    onValidate: ({ formData }) => forPost(formData),
    isValid: (formData) => parse(formData, { schema }).status === "success",
  };
}

export type BrowserValidation<S extends ZodTypeAny> = {
  /** Conform's options: spread them into `useForm`. */
  form: { onValidate: OnValidate<S> | undefined; shouldValidate: ValidateOn; shouldRevalidate: ValidateOn };
  /** Whether the form's values pass, for a button disabled until they do; undefined until known. */
  isValid: ((formData: FormData) => boolean) | undefined;
};

/**
 * The checks a form makes in the browser, loaded after the page (issue 16): zod and the form's
 * schema are in no first load, so `load` must import the schema's module dynamically. Until they
 * arrive, and if they cannot be fetched, the form is checked only when posted, by the server,
 * which applies the same schema and answers with the same messages (as without JavaScript):
 * Conform is asked to validate on submit meanwhile, since a validation it cannot make in the
 * browser it would post. Once loaded, the form validates on `when.shouldValidate` and revalidates
 * on `when.shouldRevalidate` (by default on submit and on input, conventions "Forms"). `load` is
 * called once per mounted form, and again when one of `deps` (the page's data that the schema is
 * built from) changes.
 */
export function useBrowserValidation<S extends ZodTypeAny>(
  load: () => Promise<S>,
  when: { shouldValidate?: ValidateOn; shouldRevalidate?: ValidateOn; intent?: string } = {},
  deps: readonly unknown[] = [],
): BrowserValidation<S> {
  const { shouldValidate = "onSubmit", shouldRevalidate = "onInput", intent } = when;
  const [checks, setChecks] = useState<ReturnType<typeof browserValidation<S>>>();
  useEffect(() => {
    let live = true;
    Promise.all([import("@conform-to/zod"), intent ? import("zod") : null, load()]).then(
      ([{ parseWithZod }, zod, schema]) => {
        const only = intent && zod ? { intent, anything: zod.z.any() } : undefined;
        if (live) setChecks(browserValidation(parseWithZod, schema, only));
      },
      () => {
        // Left to the server: it applies the same schema to the post.
      },
    );
    return () => {
      live = false;
    };
    // `load` is new on every render; `deps` say what it reads.
  }, deps);
  return checks
    ? { form: { onValidate: checks.onValidate, shouldValidate, shouldRevalidate }, isValid: checks.isValid }
    : { form: { onValidate: undefined, shouldValidate: "onSubmit", shouldRevalidate: "onSubmit" }, isValid: undefined };
}
