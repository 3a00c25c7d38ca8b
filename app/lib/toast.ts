// A flash message (a toast): what an action that redirects leaves for the next page to show.
export type Toast = {
  type: "success" | "error" | "info";
  /** i18n key (namespace:key) of the title, or a ready text. */
  title: string;
  description?: string;
};
