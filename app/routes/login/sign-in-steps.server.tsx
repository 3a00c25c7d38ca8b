// The sign-in steps' forms for the server's render of the login page. The browser build empties
// `.server` modules: there the steps are a lazy component (route.tsx), so the password form's first
// load carries none of them (docs/decisions/104).
export { SignInStep } from "./sign-in-steps";
