// Firm-wide configuration of the demo site (spec 000 §3 site settings, §1 feature toggles).
import { PASSWORD_GUIDANCE } from "../domain/password-policy";
import { DEFAULT_SECURITY_QUESTIONS } from "../domain/security-questions";
import { FRENCH_SETTINGS } from "./locale-names";

export const FIRM = { code: "northbridge", name: "Northbridge Wealth" };

/** The seeded Important category and the new-message notification template (server/seed/documents.ts). */
export const IMPORTANT_CATEGORY_ID = 1;
export const TAX_CATEGORY_ID = 2;
export const NOTIFICATION_TEMPLATE_ID = 1;

export const SITE_SETTINGS: Record<string, string | number | boolean | null> = {
  logo: "/brand/logo.svg",
  logoOnWhite: "/brand/logo.svg",
  footerLogo: "/brand/logo.svg",
  // the firm's own icon and login background (public/brand); tablet landscape falls back to loginBg
  favicon: "/brand/favicon.svg",
  loginBg: "/brand/login-bg.svg",
  loginBgTabletL: null,
  loginBgTabletP: "/brand/login-bg-portrait.svg",
  loginBgColour: "#14284b",
  // texts of the login and help pages; a `.<locale>` key gives a locale its own text (decision 028)
  usernameHint: "Your username was sent to you in your welcome email, for example jane.smith.",
  "usernameHint.fr-CA":
    "Votre nom d’utilisateur vous a été envoyé dans votre courriel de bienvenue, par exemple jane.smith.",
  feesAndTaxes: 1,
  enableHoldBackPeriod: false,
  // spec 001 §2.4: the chart is hidden when the type is twrr and stored historic data is used
  useHistoricData: false,
  // the home's timeframe toggle (spec 001 §2.1), as timeframe codes: 1Y, 2Y, 3Y, 5Y, YTD, SI
  defaultTimeFrame: "1Y",
  // the firm's country: spec 001 §9 special-cases GB, ZA/NA/AA and others (asset fields and filters)
  country: "GB",
  secondaryTimeFrame: "SI",
  portfolioGrouping: "split",
  // spec 001 §2.5: the balance sheet's views (a comma list of managed, non-managed, everything) and the default one
  balanceSheetViews: "managed,non-managed,everything",
  balanceSheetDefaultView: "everything",
  profitAnalysisType: "twrr",
  // spec 001 §4 the analysis page: its chart's initial tab (percentage or value), the date-range
  // options disabled (a comma list of '2 years', '3 years', 'Since inception', 'Year to date',
  // 'Custom'; none in the demo) and the benchmarks drawn on its percentage chart (codes or names)
  analysisChartTab: "percentage",
  disabledDateRanges: "",
  analysisBenchmarks: "FTASX,BAL6040",
  // spec 001 §2.2 the analysis sections the content publishes, and §5 the transactions' hide settings
  // ('Do Not Hide', 'Hide For All Transactions', 'Hide For Income Transactions Only')
  analysisSections: "investments,allocation,transactions",
  hideFees: "Do Not Hide",
  hideTaxes: "Do Not Hide",
  hideValueAfterFeesAndTaxes: "Do Not Hide",
  // spec 001 §5 the 'accounts without transactions' option: off, so an account is shown only if it
  // has transactions (decision 107)
  showAccountsWithoutTransactions: false,
  groupingFilter: "My",
  "access.memorableWordEnabled": true,
  forgotUsernameButtonText: "Forgotten your username?",
  "forgotUsernameButtonText.fr-CA": "Nom d’utilisateur oublié?",
  loginFailureMessage: "Either your username or your password is incorrect.",
  "loginFailureMessage.fr-CA": "Votre nom d’utilisateur ou votre mot de passe est incorrect.",
  // change-password guidance (spec 002 §2) and the maintenance switch (spec 000 §4)
  passwordGuidance: PASSWORD_GUIDANCE,
  maintenanceMode: false,
  // spec 002 §2 documents and messages page; messageFolders is a JSON string (settings are scalars)
  messagesHeading: "Messages and documents",
  inboxName: "Inbox",
  messageFolders: JSON.stringify([
    { name: "Valuations", documentNoteTypes: ["Valuation"] },
    { name: "Contract notes", documentNoteTypes: ["ContractNote"] },
  ]),
  // the plain texts are the site's (English); a French page takes its own variant, or the portal's
  // own French heading and inbox name when there is none (docs/decisions/119)
  "messageFolders.fr-CA": JSON.stringify([
    { name: "Évaluations", documentNoteTypes: ["Valuation"] },
    { name: "Avis d’exécution", documentNoteTypes: ["ContractNote"] },
  ]),
  importantCategoryId: IMPORTANT_CATEGORY_ID,
  notificationTemplateId: NOTIFICATION_TEMPLATE_ID,
  attachmentsDownloadable: true,
  // spec 002 §2: the fact find, automated personal advice and robo advice journeys run on another
  // system; /core/factfind, /core/apa and /core/robo link to these addresses (docs/decisions/096)
  factFindUrl: "https://journeys.northbridgewealth.example/factfind",
  apaUrl: "https://journeys.northbridgewealth.example/apa",
  roboUrl: "https://journeys.northbridgewealth.example/robo",
  // brand colours, checked for contrast against white
  chartColour1: "#1d4f91",
  chartColour2: "#00857c",
  chartColour3: "#c4511a",
  chartColour4: "#6b3fa0",
  chartColour5: "#8a6d00",
  chartColour6: "#b0265f",
  // spec 002 §7: notification config field names answered as unknown (400 'invalid field name'), as
  // an older platform does; a comma list, empty in the demo (a test sets it to meet the fallback)
  notificationFieldsUnsupported: "",
  // the guidance and the lists' names in Canadian French (docs/decisions/210)
  ...FRENCH_SETTINGS,
};

/** spec 000 §1 and 002 §6 toggles, on where the demo should show the feature. */
export const FEATURE_TOGGLES: Record<string, boolean> = {
  client_analysis: true,
  client_reports: true,
  core_authentication: true,
  ids_dropdown: false,
  notifications_v2: true,
  enhanced_sipp_wrapper: true,
  market_data_logo: false,
  store_migration: false,
  digital_signatures: true,
  related_entities: false,
  one_way_messaging: false,
  document_type_filter: true,
  analysis_investment_tab: true,
  portfolio_account_visibility: true,
};

export const FEATURE_ACCESS: Record<string, boolean> = { multi_currency: true };

export const GENERAL_CONTACTS = [
  {
    locale: "en-GB",
    contactType: "both" as const,
    introduction:
      "Your adviser is your first point of contact. Our client services team can also help with Client Online, documents and general questions.",
    contactName: "Client Services",
    contactDescription: "Help with signing in, documents and general enquiries.",
    telephoneNumber: "020 7946 0800",
    emailAddress: "clientservices@northbridgewealth.example",
    openingHours: "Monday to Friday, 9am to 5.30pm (closed on bank holidays)",
    address: "Northbridge Wealth, 41 Moorgate Place, London EC2R 6EA",
    hideAvatars: false,
  },
  {
    locale: "en-CA",
    contactType: "both" as const,
    introduction:
      "Your advisor is your first point of contact. Our client services team can also help with Client Online, documents and general questions.",
    contactName: "Client Services",
    contactDescription: "Help with signing in, documents and general inquiries.",
    telephoneNumber: "1-800-555-0148",
    emailAddress: "clientservices@northbridgewealth.example",
    openingHours: "Monday to Friday, 9 a.m. to 5 p.m. ET (closed on statutory holidays)",
    address: "Northbridge Wealth, 100 King Street West, Suite 2100, Toronto ON M5X 1A9",
    hideAvatars: false,
  },
  {
    locale: "en-AU",
    contactType: "both" as const,
    introduction:
      "Your adviser is your first point of contact. Our client services team can also help with Client Online, documents and general questions.",
    contactName: "Client Services",
    contactDescription: "Help with signing in, documents and general enquiries.",
    telephoneNumber: "1300 555 014",
    emailAddress: "clientservices@northbridgewealth.example",
    openingHours: "Monday to Friday, 9am to 5pm AEST (closed on public holidays)",
    address: "Northbridge Wealth, Level 12, 60 Martin Place, Sydney NSW 2000",
    hideAvatars: false,
  },
  {
    locale: "fr-CA",
    contactType: "both" as const,
    introduction:
      "Votre conseiller est votre premier interlocuteur. Notre équipe du service à la clientèle peut aussi vous aider avec Client Online, vos documents et vos questions générales.",
    contactName: "Service à la clientèle",
    contactDescription: "Aide pour l'ouverture de session, les documents et les demandes générales.",
    telephoneNumber: "1-800-555-0148",
    emailAddress: "serviceclient@northbridgewealth.example",
    openingHours: "Du lundi au vendredi, de 9 h à 17 h (HE), sauf les jours fériés",
    address: "Northbridge Wealth, 1000, rue De La Gauchetière Ouest, bureau 2400, Montréal (Québec) H3B 4W5",
    hideAvatars: false,
  },
];

/** demo.client's two questions: the first two of the default list. */
export const SECURITY_QUESTIONS = DEFAULT_SECURITY_QUESTIONS.slice(0, 2);

/** demo.token's software-token secret: base32 of the RFC 6238 test key "12345678901234567890". */
export const DEMO_TOKEN_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
