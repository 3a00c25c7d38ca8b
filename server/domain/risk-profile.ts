// spec 002 §3 risk profile: the firm's fixed 1–7 attitude-to-risk scale, each rating with its name
// and description (the annual review's playback shows 'Risk rating: {index} ({name})').

export type RiskRating = { index: number; name: string; description: string };

const EN: RiskRating[] = [
  {
    index: 1,
    name: "Very cautious",
    description:
      "You want to keep the value of your savings as steady as possible and accept low returns that may not keep up with inflation.",
  },
  {
    index: 2,
    name: "Cautious",
    description:
      "You accept small ups and downs in value for returns a little above cash, and prefer most of your money in lower-risk investments.",
  },
  {
    index: 3,
    name: "Moderately cautious",
    description:
      "You accept some ups and downs for modest growth, with more of your money in lower-risk investments than in shares.",
  },
  {
    index: 4,
    name: "Balanced",
    description:
      "You accept that the value of your investments will go up and down for the prospect of growth, with a balance of shares and lower-risk investments.",
  },
  {
    index: 5,
    name: "Moderately adventurous",
    description:
      "You are prepared to see larger falls in value for better long-term growth, with most of your money in shares.",
  },
  {
    index: 6,
    name: "Adventurous",
    description:
      "You are comfortable with large swings in value and invest mainly in shares, including overseas and smaller companies, for higher long-term growth.",
  },
  {
    index: 7,
    name: "Very adventurous",
    description:
      "You seek the highest long-term growth and accept very large and sudden falls in value, investing in shares and specialist markets.",
  },
];

const FR: RiskRating[] = [
  {
    index: 1,
    name: "Très prudent",
    description:
      "Vous voulez que la valeur de votre épargne reste aussi stable que possible et acceptez des rendements faibles qui pourraient ne pas suivre l’inflation.",
  },
  {
    index: 2,
    name: "Prudent",
    description:
      "Vous acceptez de légères variations de valeur pour un rendement un peu supérieur à celui des liquidités, et préférez garder la majeure partie de votre argent dans des placements à faible risque.",
  },
  {
    index: 3,
    name: "Modérément prudent",
    description:
      "Vous acceptez certaines variations pour une croissance modeste, avec davantage de placements à faible risque que d’actions.",
  },
  {
    index: 4,
    name: "Équilibré",
    description:
      "Vous acceptez que la valeur de vos placements monte et descende en vue d’une croissance, avec un équilibre entre actions et placements à faible risque.",
  },
  {
    index: 5,
    name: "Modérément audacieux",
    description:
      "Vous êtes prêt à voir des baisses de valeur plus importantes pour une meilleure croissance à long terme, avec la majeure partie de votre argent en actions.",
  },
  {
    index: 6,
    name: "Audacieux",
    description:
      "Vous acceptez de fortes variations de valeur et investissez surtout en actions, y compris étrangères et de petites sociétés, pour une croissance à long terme plus élevée.",
  },
  {
    index: 7,
    name: "Très audacieux",
    description:
      "Vous recherchez la plus forte croissance à long terme et acceptez des baisses de valeur très fortes et soudaines, en investissant en actions et dans des marchés spécialisés.",
  },
];

/** The scale in a locale: French for fr-CA, English otherwise. */
export function riskScale(locale: string): RiskRating[] {
  return locale === "fr-CA" ? FR : EN;
}

/** The rating of an index in a locale, or null when the index is not on the scale. */
export function riskRating(index: number | null | undefined, locale: string): RiskRating | null {
  if (index === null || index === undefined) return null;
  return riskScale(locale).find((r) => r.index === index) ?? null;
}
