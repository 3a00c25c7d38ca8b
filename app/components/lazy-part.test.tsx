import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { afterHydration, lazyPart, preloadRenderedParts } from "./lazy-part";

const Greeting = ({ name }: { name: string }) => <p>Hello {name}</p>;

/** A document that holds the wrappers of the given parts. */
const documentWith = (...names: string[]) =>
  ({ querySelectorAll: () => names.map((name) => ({ dataset: { lazyPart: name } })) }) as unknown as ParentNode;

describe("lazyPart", () => {
  it("renders the server's component at once, inside its wrapper", () => {
    const load = vi.fn(async () => Greeting);
    const Part = lazyPart("test-server", Greeting, load);
    expect(renderToStaticMarkup(<Part name="Ada" />)).toBe(
      '<div data-lazy-part="test-server" class="lazy-part"><p>Hello Ada</p></div>',
    );
    expect(load).not.toHaveBeenCalled();
  });

  it("in the browser, loads the parts the document shows before hydrating, once, and then renders them at once", async () => {
    const shown = vi.fn(async () => Greeting);
    const notShown = vi.fn(async () => Greeting);
    const Part = lazyPart("test-shown", undefined, shown);
    lazyPart("test-not-shown", undefined, notShown);
    await preloadRenderedParts(documentWith("test-shown", "test-shown", "unknown"));
    await preloadRenderedParts(documentWith("test-shown"));
    expect(shown).toHaveBeenCalledTimes(1);
    expect(notShown).not.toHaveBeenCalled();
    expect(renderToStaticMarkup(<Part name="Grace" />)).toContain("<p>Hello Grace</p>");
  });

  it("shows nothing while a part not yet loaded arrives, and a part that cannot load does not stop the others", async () => {
    const Part = lazyPart<{ name: string }>("test-pending", undefined, () => new Promise(() => {}));
    expect(renderToStaticMarkup(<Part name="Alan" />)).toBe(
      '<div data-lazy-part="test-pending" class="lazy-part"></div>',
    );
    const broken = lazyPart<{ name: string }>("test-broken", undefined, async () => {
      throw new Error("chunk failed");
    });
    const fine = vi.fn(async () => Greeting);
    const Fine = lazyPart("test-fine", undefined, fine);
    await expect(preloadRenderedParts(documentWith("test-broken", "test-fine"))).resolves.toBeDefined();
    expect(renderToStaticMarkup(<Fine name="Edsger" />)).toContain("Hello Edsger");
    // Its boundary shows nothing (in the browser the page's error boundary takes the error).
    const Broken = broken;
    expect(renderToStaticMarkup(<Broken name="x" />)).toBe(
      '<div data-lazy-part="test-broken" class="lazy-part"></div>',
    );
  });
});

describe("afterHydration", () => {
  it("renders nothing on the server and does not load the part there", () => {
    const load = vi.fn(async () => Greeting);
    const Part = afterHydration(load);
    expect(renderToStaticMarkup(<Part name="Barbara" />)).toBe("");
    expect(load).not.toHaveBeenCalled();
  });
});
