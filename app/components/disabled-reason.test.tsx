import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DisabledReason, SubmitWithReason } from "./disabled-reason";

// Issue 25 item 10: a button the spec disables says why, beside it; one rule for every such button.

const render = (props: Partial<Parameters<typeof SubmitWithReason>[0]> = {}) =>
  renderToStaticMarkup(
    <SubmitWithReason reasonId="save-reason" reason={null} {...props}>
      Save
    </SubmitWithReason>,
  );

describe("SubmitWithReason", () => {
  it("is enabled and described by nothing while there is no reason", () => {
    expect(render()).toBe('<button type="submit" class="button">Save</button>');
  });

  it("is disabled and described by its reason while there is one", () => {
    const html = render({ reason: "Enter the code" });
    expect(html).toContain("disabled");
    expect(html).toContain('aria-describedby="save-reason"');
  });

  it("is disabled while the form is pending, with no reason to point at", () => {
    const html = render({ pending: true });
    expect(html).toContain("disabled");
    expect(html).not.toContain("aria-describedby");
  });

  it("carries the intent it submits", () => {
    expect(render({ name: "intent", value: "verify" })).toContain('name="intent" value="verify"');
  });

  it("points at the paragraph DisabledReason shows under the same id", () => {
    const reason = "Accept the terms";
    const html = renderToStaticMarkup(
      <>
        <SubmitWithReason reasonId="verify-reason" reason={reason}>
          Verify
        </SubmitWithReason>
        <DisabledReason id="verify-reason" reason={reason} />
      </>,
    );
    expect(html).toContain('aria-describedby="verify-reason"');
    expect(html).toContain('<p id="verify-reason" class="button-reason">Accept the terms</p>');
  });
});

describe("DisabledReason", () => {
  it("shows nothing while the button is enabled", () => {
    expect(renderToStaticMarkup(<DisabledReason id="r" reason={null} />)).toBe("");
  });
});
