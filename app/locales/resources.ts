import enAUAdvisers from "./en-AU/advisers.json";
import enAUAuth from "./en-AU/auth.json";
import enAUClients from "./en-AU/clients.json";
import enAUCommon from "./en-AU/common.json";
import enCAAdvisers from "./en-CA/advisers.json";
import enCAAuth from "./en-CA/auth.json";
import enCAClients from "./en-CA/clients.json";
import enCACommon from "./en-CA/common.json";
import enGBAdvisers from "./en-GB/advisers.json";
import enGBAuth from "./en-GB/auth.json";
import enGBClients from "./en-GB/clients.json";
import enGBCommon from "./en-GB/common.json";
import frCAAdvisers from "./fr-CA/advisers.json";
import frCAAuth from "./fr-CA/auth.json";
import frCAClients from "./fr-CA/clients.json";
import frCACommon from "./fr-CA/common.json";

// en-GB holds the spec's texts verbatim and is the source of truth; the others must have every key.
export const resources = {
  "en-GB": { common: enGBCommon, auth: enGBAuth, clients: enGBClients, advisers: enGBAdvisers },
  "en-CA": { common: enCACommon, auth: enCAAuth, clients: enCAClients, advisers: enCAAdvisers },
  "en-AU": { common: enAUCommon, auth: enAUAuth, clients: enAUClients, advisers: enAUAdvisers },
  "fr-CA": { common: frCACommon, auth: frCAAuth, clients: frCAClients, advisers: frCAAdvisers },
} as const;
