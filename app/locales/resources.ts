import enGBRecovery from "./en-GB/recovery.json";
import enGBSecurity from "./en-GB/security.json";
import enGBSession from "./en-GB/session.json";
import enCARecovery from "./en-CA/recovery.json";
import enCASecurity from "./en-CA/security.json";
import enCASession from "./en-CA/session.json";
import enAURecovery from "./en-AU/recovery.json";
import enAUSecurity from "./en-AU/security.json";
import enAUSession from "./en-AU/session.json";
import frCARecovery from "./fr-CA/recovery.json";
import frCASecurity from "./fr-CA/security.json";
import frCASession from "./fr-CA/session.json";
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
import enGBCompose from "./en-GB/compose.json";
import enCACompose from "./en-CA/compose.json";
import enAUCompose from "./en-AU/compose.json";
import frCACompose from "./fr-CA/compose.json";

import enGBMessages from "./en-GB/messages.json";
import enCAMessages from "./en-CA/messages.json";
import enAUMessages from "./en-AU/messages.json";
import frCAMessages from "./fr-CA/messages.json";

import enGBReview from "./en-GB/review.json";
import enGBNotifications from "./en-GB/notifications.json";
import enCAReview from "./en-CA/review.json";
import enCANotifications from "./en-CA/notifications.json";
import enAUReview from "./en-AU/review.json";
import enAUNotifications from "./en-AU/notifications.json";
import frCAReview from "./fr-CA/review.json";
import frCANotifications from "./fr-CA/notifications.json";

import enGBReports from "./en-GB/reports.json";
import enCAReports from "./en-CA/reports.json";
import enAUReports from "./en-AU/reports.json";
import frCAReports from "./fr-CA/reports.json";

// en-GB holds the spec's texts verbatim and is the source of truth; the others must have every key.
export const resources = {
  "en-GB": {
    common: enGBCommon,
    auth: enGBAuth,
    clients: enGBClients,
    advisers: enGBAdvisers,
    recovery: enGBRecovery,
    security: enGBSecurity,
    session: enGBSession,
    compose: enGBCompose,
    messages: enGBMessages,
    review: enGBReview,
    notifications: enGBNotifications,
    reports: enGBReports,
  },
  "en-CA": {
    common: enCACommon,
    auth: enCAAuth,
    clients: enCAClients,
    advisers: enCAAdvisers,
    recovery: enCARecovery,
    security: enCASecurity,
    session: enCASession,
    compose: enCACompose,
    messages: enCAMessages,
    review: enCAReview,
    notifications: enCANotifications,
    reports: enCAReports,
  },
  "en-AU": {
    common: enAUCommon,
    auth: enAUAuth,
    clients: enAUClients,
    advisers: enAUAdvisers,
    recovery: enAURecovery,
    security: enAUSecurity,
    session: enAUSession,
    compose: enAUCompose,
    messages: enAUMessages,
    review: enAUReview,
    notifications: enAUNotifications,
    reports: enAUReports,
  },
  "fr-CA": {
    common: frCACommon,
    auth: frCAAuth,
    clients: frCAClients,
    advisers: frCAAdvisers,
    recovery: frCARecovery,
    security: frCASecurity,
    session: frCASession,
    compose: frCACompose,
    messages: frCAMessages,
    review: frCAReview,
    notifications: frCANotifications,
    reports: frCAReports,
  },
} as const;
