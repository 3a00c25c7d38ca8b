// The compose form for the server's render of the page. The browser build empties `.server`
// modules: there the form is a lazy component (route.tsx), so the page's first load carries
// neither the form nor the form library (docs/decisions/104).
export { ComposeForm } from "./compose-form";
