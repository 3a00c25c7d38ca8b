// The site's texts and lists in Canadian French (issue 40, docs/decisions/210): each list as a
// setting `<list>.fr-CA`, a JSON object from the English name the platform holds to the French one,
// and the password guidance as `passwordGuidance.fr-CA`, as the messages heading and folders are
// (decisions 028 and 119). The portal shows a page's own language where the site gives it, and the
// English marked `lang="en"` where it does not.
import { DEFAULT_SECURITY_QUESTIONS } from "../domain/security-questions";

type Names = Record<string, string>;

/** spec 002 §3: the eight default questions, in the order of the English list. */
const SECURITY_QUESTIONS_FR: readonly string[] = [
  "Quel était le nom de votre premier animal de compagnie?",
  "Dans quelle ville vos parents se sont-ils rencontrés?",
  "Quel était le nom de votre première école?",
  "Quel est le prénom de l’aînée ou de l’aîné de vos cousins?",
  "Quelle était la marque de votre première voiture?",
  "Dans quelle ville êtes-vous né ou née?",
  "Quel était votre surnom d’enfance?",
  "Quel est le nom de la rue où vous avez grandi?",
];

const ASSET_CLASSES_FR: Names = {
  Equities: "Actions",
  "Fixed income": "Titres à revenu fixe",
  Property: "Immobilier",
  Cash: "Liquidités",
  "Multi-asset": "Multiactifs",
};

const SECTORS_FR: Names = {
  Cash: "Liquidités",
  "Consumer Staples": "Biens de consommation de base",
  "Consumer Discretionary": "Consommation discrétionnaire",
  Diversified: "Diversifié",
  Energy: "Énergie",
  Financials: "Services financiers",
  "Government Bonds": "Obligations gouvernementales",
  "Corporate Bonds": "Obligations de sociétés",
  "Health Care": "Soins de santé",
  Industrials: "Produits industriels",
  "Information Technology": "Technologies de l’information",
  Materials: "Matériaux",
  "Multi-asset": "Multiactifs",
  "Real Estate": "Immobilier",
  Utilities: "Services publics",
  "Communication Services": "Services de communication",
  Unclassified: "Non classé",
};

const REGIONS_FR: Names = {
  "United Kingdom": "Royaume-Uni",
  "North America": "Amérique du Nord",
  Europe: "Europe",
  "Asia Pacific": "Asie-Pacifique",
  "Emerging Markets": "Marchés émergents",
  Japan: "Japon",
  Global: "Mondial",
};

const DOCUMENT_TYPES_FR: Names = {
  "Secure Message": "Message sécurisé",
  Valuation: "Évaluation",
  "Contract note": "Avis d’exécution",
  "Terms and Conditions": "Modalités et conditions",
  "Annual review": "Revue annuelle",
  Letter: "Lettre",
};

const BENCHMARKS_FR: Names = {
  "FTSE All-Share": "Indice FTSE All-Share",
  "MSCI World (GBP)": "Indice MSCI Monde (GBP)",
  "FTSE Actuaries UK Gilts All Stocks": "Indice FTSE Actuaries des obligations d’État britanniques, toutes échéances",
  "Balanced index 60/40 (MSCI World and UK gilts)":
    "Indice équilibré 60/40 (MSCI Monde et obligations d’État britanniques)",
};

const REPORT_TEMPLATES_FR: Names = {
  "Portfolio valuation": "Évaluation du portefeuille",
  "Performance report": "Rapport de rendement",
  "Household valuation": "Évaluation du ménage",
  "Client valuation (adviser)": "Évaluation du client (conseiller)",
  "Client review pack": "Dossier de revue du client",
};

const PASSWORD_GUIDANCE_FR =
  "Utilisez au moins 12 caractères : quelques mots sans lien entre eux forment un mot de passe robuste et facile à retenir. N’utilisez pas un mot de passe courant, votre nom d’utilisateur ni votre mot de passe actuel.";

/** The settings that give fr-CA its texts and names (added to the site's settings). */
export const FRENCH_SETTINGS: Record<string, string> = {
  "passwordGuidance.fr-CA": PASSWORD_GUIDANCE_FR,
  "securityQuestions.fr-CA": JSON.stringify(
    Object.fromEntries(DEFAULT_SECURITY_QUESTIONS.map((question, i) => [question, SECURITY_QUESTIONS_FR[i]!])),
  ),
  "assetClassNames.fr-CA": JSON.stringify(ASSET_CLASSES_FR),
  "sectorNames.fr-CA": JSON.stringify(SECTORS_FR),
  "regionNames.fr-CA": JSON.stringify(REGIONS_FR),
  "documentTypeNames.fr-CA": JSON.stringify(DOCUMENT_TYPES_FR),
  "benchmarkNames.fr-CA": JSON.stringify(BENCHMARKS_FR),
  "reportTemplateNames.fr-CA": JSON.stringify(REPORT_TEMPLATES_FR),
};
