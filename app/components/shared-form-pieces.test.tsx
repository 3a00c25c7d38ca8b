import { renderToStaticMarkup } from "react-dom/server";
import type { FieldMetadata } from "@conform-to/react";
import { describe, expect, it } from "vitest";
import { OTHER_QUESTION } from "~/lib/security";
import { useRemountKey } from "./forms";
import { NewPasswordField } from "./new-password-field";
import { QuestionChoice, QuestionSelect } from "./question-select";
import { createTranslator } from "~/lib/translator";
import { TranslationProvider } from "./translation";

// Issue 27 item 3: the form pieces the sign-in steps and the account pages share (decision 142).

/** The Conform metadata of a select, as getSelectProps reads it. */
function selectMeta(errors?: string[]): FieldMetadata<string | undefined> {
  return {
    id: "q1",
    name: "question1",
    formId: "questions",
    errorId: "q1-error",
    descriptionId: "q1-description",
    initialValue: "Pet",
    errors,
    required: false,
    key: undefined,
  } as unknown as FieldMetadata<string | undefined>;
}

describe("QuestionSelect (spec 002 §5)", () => {
  const render = (props: Partial<Parameters<typeof QuestionSelect>[0]> = {}) =>
    renderToStaticMarkup(
      <TranslationProvider translator={createTranslator("en-GB", { common: {} })}>
        <QuestionSelect
          meta={selectMeta()}
          label="Question 1"
          questions={["Pet", "School"]}
          chooseLabel="Choose a question"
          otherLabel="Other"
          {...props}
        />
      </TranslationProvider>,
    );

  it("offers an empty choice, the default questions and 'Other', in that order", () => {
    const html = render();
    const options = [...html.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]);
    expect(options).toEqual([
      ["", "Choose a question"],
      ["Pet", "Pet"],
      ["School", "School"],
      [OTHER_QUESTION, "Other"],
    ]);
    expect(html).toContain('<label for="q1" class="field__label">Question 1</label>');
    expect(html).toContain('name="question1"');
  });

  it("preselects the field's value, or the value a page controls", () => {
    expect(render()).toMatch(/<option value="Pet" selected="">/);
    expect(render({ value: "School", onChange: () => {} })).toMatch(/<option value="School" selected="">/);
  });

  it("shows its error and points the select at it", () => {
    const html = render({ meta: selectMeta(["Choose a question."]) });
    expect(html).toContain('class="field field--error"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('aria-describedby="q1-error"');
    expect(html).toContain('id="q1-error"');
  });
});

describe("QuestionChoice (decision 053)", () => {
  const customMeta = {
    ...selectMeta(),
    id: "c1",
    name: "question1Custom",
    descriptionId: "c1-description",
    initialValue: "",
  } as unknown as FieldMetadata<string | undefined>;
  const render = (initial: string) =>
    renderToStaticMarkup(
      <TranslationProvider translator={createTranslator("en-GB", { common: {} })}>
        <QuestionChoice
          meta={selectMeta()}
          customMeta={customMeta}
          initial={initial}
          resetOn={undefined}
          label="Question 1"
          questions={["Pet", "School"]}
          chooseLabel="Choose a question"
          otherLabel="Other"
          customLabel="Your own question 1"
          customHint="Only if you chose Other."
        />
      </TranslationProvider>,
    );

  it("renders, before JavaScript runs, the own question's input with its hint whatever is chosen", () => {
    for (const initial of ["Pet", OTHER_QUESTION, ""]) {
      const html = render(initial);
      expect(html).toContain('<label for="c1" class="field__label">Your own question 1</label>');
      expect(html).toContain('<p id="c1-description" class="field__hint">Only if you chose Other.</p>');
      expect(html).not.toContain('type="hidden"');
    }
  });

  it("starts from the choice it is given", () => {
    expect(render("School")).toMatch(/<option value="School" selected="">/);
    expect(render(OTHER_QUESTION)).toMatch(new RegExp(`<option value="${OTHER_QUESTION}" selected="">`));
  });
});

describe("useRemountKey", () => {
  function Key({ answer }: { answer: unknown }) {
    return <>{useRemountKey(answer)}</>;
  }
  const keyOf = (answer: unknown) => Number(renderToStaticMarkup(<Key answer={answer} />));

  it("is 0 until the server has answered", () => {
    expect(keyOf(undefined)).toBe(0);
  });

  it("is another key for every answer", () => {
    const first = keyOf({ result: 1 });
    const second = keyOf({ result: 1 });
    expect(first).not.toBe(0);
    expect(second).not.toBe(first);
  });
});

describe("NewPasswordField (spec 000 §5, 002 §2)", () => {
  const meta = {
    id: "new",
    name: "newPassword",
    formId: "change-password",
    errorId: "new-error",
    descriptionId: "new-description",
    initialValue: "typed-before",
    required: false,
    key: undefined,
  } as unknown as FieldMetadata<string | undefined>;
  const render = (strengthMeter: boolean, guidance: string | null, lang: "en" | null = null) =>
    renderToStaticMarkup(
      <TranslationProvider translator={createTranslator("en-GB", { common: {}, security: {} })}>
        <NewPasswordField
          meta={meta}
          label="New password"
          showLabel="Show new password"
          guidance={guidance === null ? null : { text: guidance, lang }}
          strengthMeter={strengthMeter}
        />
      </TranslationProvider>,
    );

  it("is a masked new password that never echoes what was typed", () => {
    const input = /<input[^>]*name="newPassword"[^>]*>/.exec(render(true, null))?.[0] ?? "";
    expect(input).toContain('type="password"');
    expect(input).toMatch(/autocomplete="new-password"/i);
    expect(input).not.toContain("typed-before");
  });

  it("shows the site's guidance as its hint, and the strength meter only when the site has it", () => {
    expect(render(true, "Use 12 characters.")).toContain("Use 12 characters.");
    expect(render(true, "Use 12 characters.")).not.toContain("lang=");
    // on a French page without the site's French guidance (decision 210)
    expect(render(true, "Use 12 characters.", "en")).toContain('<span lang="en">Use 12 characters.</span>');
    expect(render(true, null)).toContain("password-strength");
    expect(render(false, null)).not.toContain("password-strength");
  });

  it("keeps the place of the show-password box until JavaScript runs", () => {
    expect(render(false, null)).toContain("checkbox--reserved");
  });
});
