import { type ComponentType, createElement, Suspense, useEffect, useState } from "react";

// A part of a page that only some of its views show (the messages page's compose form, the login
// page's sign-in steps and passkey button): out of the page's first load (docs/decisions/104).
//
// The server renders it at once, from the component itself (given by a `.server` module, which the
// browser build empties), inside a `data-lazy-part` wrapper. In the browser the part's module is
// a dynamic import: the client entry loads the parts the server rendered before it hydrates
// (`preloadRenderedParts`), so they hydrate like the rest of the page; a view reached later by a
// client-side navigation suspends on it for the moment its code takes to arrive.

type Part = { preload: () => Promise<unknown> };
const parts = new Map<string, Part>();

export function lazyPart<P extends object>(
  name: string,
  onServer: ComponentType<P> | undefined,
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  let loaded: ComponentType<P> | undefined = onServer;
  let pending: Promise<ComponentType<P>> | undefined;
  let failure: unknown;
  const preload = () =>
    (pending ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (error: unknown) => {
        failure = error;
        throw error;
      },
    ));
  parts.set(name, { preload });
  function Loaded(props: P) {
    if (loaded) return createElement(loaded, props);
    // The page's error boundary says the page could not be shown, rather than waiting forever.
    if (failure) throw failure;
    throw preload();
  }
  function LazyPart(props: P) {
    return (
      <div data-lazy-part={name} className="lazy-part">
        <Suspense fallback={null}>
          <Loaded {...props} />
        </Suspense>
      </div>
    );
  }
  LazyPart.displayName = `LazyPart(${name})`;
  return LazyPart;
}

/** Loads the code of every part the server rendered into this document (the client entry, before hydrating). */
export function preloadRenderedParts(root: ParentNode = document): Promise<unknown> {
  const names = new Set(
    [...root.querySelectorAll<HTMLElement>("[data-lazy-part]")].map((element) => element.dataset.lazyPart ?? ""),
  );
  return Promise.all(
    [...names].map((name) =>
      parts
        .get(name)
        ?.preload()
        .catch(() => undefined),
    ),
  );
}

/**
 * A part that the server renders as nothing (it needs the browser: 'Login using biometrics'): the
 * browser loads it once the page has hydrated, and renders it then.
 */
export function afterHydration<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  function AfterHydration(props: P) {
    const [component, setComponent] = useState<ComponentType<P> | undefined>(() => loaded);
    useEffect(() => {
      if (component) return;
      let live = true;
      load().then(
        (c) => {
          loaded = c;
          if (live) setComponent(() => c);
        },
        () => {
          // Nothing is shown: the page works without it, as without JavaScript.
        },
      );
      return () => {
        live = false;
      };
    }, [component]);
    return component ? createElement(component, props) : null;
  }
  return AfterHydration;
}
