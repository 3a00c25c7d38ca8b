import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { createTranslator, type Texts, type Translate, type Translator } from "~/lib/translator";

// The texts of the page's locale for its components, on the server and in the browser alike
// (app/lib/translator.ts; the browser has no i18next, issue 16). `useTranslation(ns)` answers
// `{ t, i18n }` like react-i18next's hook: `t` translates in `ns`, `i18n` knows the language.

type TranslationState = { translator: Translator; switchTo: (language: string, texts: Texts) => void };

const TranslationContext = createContext<TranslationState | null>(null);

export function TranslationProvider({
  translator: initial,
  children,
}: {
  translator: Translator;
  children?: ReactNode;
}) {
  const [translator, setTranslator] = useState(initial);
  const switchTo = useCallback(
    (language: string, texts: Texts) => setTranslator(createTranslator(language, texts)),
    [],
  );
  const value = useMemo(() => ({ translator, switchTo }), [translator, switchTo]);
  return <TranslationContext.Provider value={value}>{children}</TranslationContext.Provider>;
}

function useTranslationState(): TranslationState {
  const state = useContext(TranslationContext);
  if (!state) throw new Error("useTranslation needs a TranslationProvider above it");
  return state;
}

export function useTranslation(ns?: string): { t: Translate; i18n: Translator } {
  const { translator } = useTranslationState();
  return useMemo(() => ({ t: translator.fixedT(ns), i18n: translator }), [translator, ns]);
}

/** Renders the page's components in another locale, with that locale's texts. */
export function useSwitchLanguage(): TranslationState["switchTo"] {
  return useTranslationState().switchTo;
}
