import { createContext, useContext } from "react";

// The CSP nonce of this response (entry.server sets it); empty in the browser, where React
// keeps the server's attribute.
export const NonceContext = createContext<string>("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
