// The annual review's demo content (spec 002 §3 "Review page config") in each locale, the review
// statuses and risk profiles of the Hartleys, the notification panels' logins and the fact find's
// 'speak to adviser' email template (docs/platform-api.md "Review and notifications").
import { eq } from "drizzle-orm";
import type { Db } from "../db/connection";
import { emailTemplates, entities, reviewPages } from "../db/schema";
import { FACT_FIND_TEMPLATE_PURPOSE, REVIEW_STATUS } from "../domain/review-status";

type Field = { field_name: string; description: string; enabled: boolean };
export type ReviewPageSeed = {
  order: number;
  type: (typeof reviewPages.$inferInsert)["type"];
  heading: string;
  secondaryHeading?: string;
  introductionText?: string;
  clientQuestion?: string;
  partnerQuestion?: string;
  alternateClientQuestion?: string;
  alternatePartnerQuestion?: string;
  hint?: string;
  showAdditionalInformation?: boolean;
  fields?: Field[];
  changesText?: string;
  noChangesText?: string;
  successText?: string;
  errorText?: string;
  displayAdviserDetail?: boolean;
  adviserDetailsHeader?: string;
};

/** The fact find's 'speak to adviser' email (the notification config's email_template_id). */
export const FACT_FIND_TEMPLATE_ID = 2;

const CONTACT_FIELDS = [
  "home_phone",
  "work_phone",
  "mobile_phone",
  "personal_email",
  "work_email",
  "residential_address",
  "postal_address",
];
const PERSONAL_FIELDS = [
  "title",
  "first_name",
  "middle_name",
  "last_name",
  "dob",
  "country_of_birth",
  "marital_status",
  "dependents",
];
const fieldsOf = (names: string[], descriptions: string[], disabled: string[] = []): Field[] =>
  names.map((field_name, i) => ({
    field_name,
    description: descriptions[i] as string,
    enabled: !disabled.includes(field_name),
  }));

/** English pages; `adviser` is the locale's spelling (adviser, or advisor in Canada). */
// eslint-disable-next-line max-lines-per-function -- a declarative table: the English review pages' text
function englishPages(adviser: "adviser" | "advisor", dependants: "Dependants" | "Dependents"): ReviewPageSeed[] {
  const Adviser = adviser === "adviser" ? "Adviser" : "Advisor";
  return [
    {
      order: 1,
      type: "reviewIntro",
      heading: "Your annual review",
      secondaryHeading: "Tell us what has changed in the last year",
      introductionText:
        `<p>Once a year we check that your plan still fits your life. The review takes about ten minutes: a few questions about your circumstances, your plans and your attitude to risk, then a check of the details we hold about you.</p>` +
        `<p>Your answers go to your ${adviser} as a secure message. If you would rather talk it through, choose <strong>Speak to ${adviser}</strong> and they will contact you.</p>`,
      hint: "You can go back to a previous page at any time before you submit.",
    },
    {
      order: 2,
      type: "standardQuestionPage",
      heading: "Your circumstances",
      introductionText:
        "<p>Changes in your family, your home, your work or your health can change what your plan needs to do.</p>",
      clientQuestion: "Have your circumstances changed since your last review?",
      alternateClientQuestion: "Have your own circumstances changed since your last review?",
      partnerQuestion: "Have {partnerName}'s circumstances changed since your last review?",
      alternatePartnerQuestion: "Have your partner's circumstances changed since your last review?",
      hint: "For example marriage or separation, a new child or grandchild, moving home, retirement or a change in your health.",
      showAdditionalInformation: true,
    },
    {
      order: 3,
      type: "standardQuestionPage",
      heading: "Your income and spending",
      introductionText: `<p>We use your income and spending to check how much you can save and how long your money will last. Your ${adviser} will ask about any change in detail.</p>`,
      clientQuestion: "Has your income or your regular spending changed by more than 10% since your last review?",
      alternateClientQuestion:
        "Has your own income or regular spending changed by more than 10% since your last review?",
      partnerQuestion:
        "Has {partnerName}'s income or regular spending changed by more than 10% since your last review?",
      alternatePartnerQuestion:
        "Has your partner's income or regular spending changed by more than 10% since your last review?",
      hint: "Include pay rises, a new job, a pension starting to pay out, or a large new regular cost.",
      showAdditionalInformation: false,
    },
    {
      order: 4,
      type: "standardQuestionPage",
      heading: "Your plans and goals",
      introductionText: "<p>Your goals shape how your money is invested and when it needs to be available.</p>",
      clientQuestion: "Have your plans or goals changed since your last review?",
      alternateClientQuestion: "Have your own plans or goals changed since your last review?",
      partnerQuestion: "Have {partnerName}'s plans or goals changed since your last review?",
      alternatePartnerQuestion: "Have your partner's plans or goals changed since your last review?",
      hint: "For example when you want to retire, a large purchase, helping family, or leaving an inheritance.",
      showAdditionalInformation: true,
    },
    {
      order: 5,
      type: "riskProfileQuestion",
      heading: "Your attitude to risk",
      introductionText:
        "<p>This is the risk profile agreed at your last review. It guides how much of your money is invested in shares and other assets whose value can go down as well as up.</p>",
      clientQuestion: "Do you feel your attitude to investment risk has changed?",
      alternateClientQuestion: "Do you feel your own attitude to investment risk has changed?",
      partnerQuestion: "Does {partnerName} feel their attitude to investment risk has changed?",
      alternatePartnerQuestion: "Does your partner feel their attitude to investment risk has changed?",
      hint: `If you are not sure, answer Yes and your ${adviser} will go through it with you.`,
      showAdditionalInformation: true,
    },
    {
      order: 6,
      type: "contactDetailsQuestionPage",
      heading: "Your contact details",
      introductionText: "<p>These are the contact details we hold for you.</p>",
      clientQuestion: "Do any of these details need updating?",
      alternateClientQuestion: "Do any of your own details need updating?",
      partnerQuestion: "Do any of {partnerName}'s details need updating?",
      alternatePartnerQuestion: "Do any of your partner's details need updating?",
      hint: "Tell us the new details in the box that appears when you answer Yes.",
      showAdditionalInformation: true,
      fields: fieldsOf(
        CONTACT_FIELDS,
        [
          "Home phone",
          "Work phone",
          "Mobile phone",
          "Personal email",
          "Work email",
          "Residential address",
          "Postal address",
        ],
        ["work_email"],
      ),
    },
    {
      order: 7,
      type: "personalDetailsQuestionPage",
      heading: "Your personal details",
      introductionText: "<p>These are the personal details we hold for you.</p>",
      clientQuestion: "Do any of these details need updating?",
      alternateClientQuestion: "Do any of your own details need updating?",
      partnerQuestion: "Do any of {partnerName}'s details need updating?",
      alternatePartnerQuestion: "Do any of your partner's details need updating?",
      showAdditionalInformation: true,
      fields: fieldsOf(PERSONAL_FIELDS, [
        "Title",
        "First name",
        "Middle name",
        "Last name",
        "Date of birth",
        "Country of birth",
        "Marital status",
        dependants,
      ]),
    },
    {
      order: 8,
      type: "submission",
      heading: "Submit your review",
      introductionText: `<p>Thank you for answering the questions. When you submit, your answers are sent to your ${adviser} as a secure message, which you will find in your Sent folder.</p>`,
      changesText: `You have told us about some changes. Your ${adviser} will be in touch to talk them through.`,
      noChangesText: `You have told us that nothing has changed. Your ${adviser} will still contact you if anything needs your attention.`,
    },
    {
      order: 9,
      type: "completion",
      heading: "Review complete",
      successText: `Thank you. Your annual review has been sent to your ${adviser}.`,
      errorText: "While submitting your response an error has occurred. Please contact your " + adviser + ".",
      displayAdviserDetail: true,
      adviserDetailsHeader: `Your ${Adviser}`,
    },
  ];
}

const FRENCH_PAGES: ReviewPageSeed[] = [
  {
    order: 1,
    type: "reviewIntro",
    heading: "Votre revue annuelle",
    secondaryHeading: "Dites-nous ce qui a changé au cours de la dernière année",
    introductionText:
      "<p>Une fois par année, nous vérifions que votre plan correspond toujours à votre situation. La revue prend environ dix minutes : quelques questions sur votre situation, vos projets et votre tolérance au risque, puis une vérification des renseignements que nous avons à votre sujet.</p>" +
      "<p>Vos réponses sont transmises à votre conseiller par message sécurisé. Si vous préférez en discuter, choisissez <strong>Parler à votre conseiller</strong> et il communiquera avec vous.</p>",
    hint: "Vous pouvez revenir à une page précédente en tout temps avant de soumettre.",
  },
  {
    order: 2,
    type: "standardQuestionPage",
    heading: "Votre situation",
    introductionText:
      "<p>Un changement dans votre famille, votre logement, votre travail ou votre santé peut modifier ce que votre plan doit accomplir.</p>",
    clientQuestion: "Votre situation a-t-elle changé depuis votre dernière revue?",
    alternateClientQuestion: "Votre propre situation a-t-elle changé depuis votre dernière revue?",
    partnerQuestion: "La situation de {partnerName} a-t-elle changé depuis votre dernière revue?",
    alternatePartnerQuestion: "La situation de votre conjoint a-t-elle changé depuis votre dernière revue?",
    hint: "Par exemple un mariage ou une séparation, la naissance d’un enfant ou d’un petit-enfant, un déménagement, la retraite ou un changement de votre état de santé.",
    showAdditionalInformation: true,
  },
  {
    order: 3,
    type: "standardQuestionPage",
    heading: "Vos revenus et vos dépenses",
    introductionText:
      "<p>Vos revenus et vos dépenses nous permettent d’évaluer combien vous pouvez épargner et combien de temps votre argent durera. Votre conseiller vous posera des questions sur tout changement.</p>",
    clientQuestion: "Vos revenus ou vos dépenses courantes ont-ils varié de plus de 10 % depuis votre dernière revue?",
    alternateClientQuestion:
      "Vos propres revenus ou dépenses courantes ont-ils varié de plus de 10 % depuis votre dernière revue?",
    partnerQuestion:
      "Les revenus ou les dépenses courantes de {partnerName} ont-ils varié de plus de 10 % depuis votre dernière revue?",
    alternatePartnerQuestion:
      "Les revenus ou les dépenses courantes de votre conjoint ont-ils varié de plus de 10 % depuis votre dernière revue?",
    hint: "Pensez à une augmentation de salaire, un nouvel emploi, une rente de retraite qui commence ou une nouvelle dépense importante.",
    showAdditionalInformation: false,
  },
  {
    order: 4,
    type: "standardQuestionPage",
    heading: "Vos projets et vos objectifs",
    introductionText:
      "<p>Vos objectifs déterminent la façon dont votre argent est placé et le moment où il doit être disponible.</p>",
    clientQuestion: "Vos projets ou vos objectifs ont-ils changé depuis votre dernière revue?",
    alternateClientQuestion: "Vos propres projets ou objectifs ont-ils changé depuis votre dernière revue?",
    partnerQuestion: "Les projets ou les objectifs de {partnerName} ont-ils changé depuis votre dernière revue?",
    alternatePartnerQuestion:
      "Les projets ou les objectifs de votre conjoint ont-ils changé depuis votre dernière revue?",
    hint: "Par exemple la date de votre retraite, un achat important, l’aide à un proche ou un héritage à transmettre.",
    showAdditionalInformation: true,
  },
  {
    order: 5,
    type: "riskProfileQuestion",
    heading: "Votre tolérance au risque",
    introductionText:
      "<p>Voici le profil de risque convenu lors de votre dernière revue. Il guide la part de votre argent placée en actions et dans d’autres placements dont la valeur peut baisser comme augmenter.</p>",
    clientQuestion: "Pensez-vous que votre tolérance au risque de placement a changé?",
    alternateClientQuestion: "Pensez-vous que votre propre tolérance au risque de placement a changé?",
    partnerQuestion: "{partnerName} pense-t-il que sa tolérance au risque de placement a changé?",
    alternatePartnerQuestion: "Votre conjoint pense-t-il que sa tolérance au risque de placement a changé?",
    hint: "En cas de doute, répondez Oui et votre conseiller en discutera avec vous.",
    showAdditionalInformation: true,
  },
  {
    order: 6,
    type: "contactDetailsQuestionPage",
    heading: "Vos coordonnées",
    introductionText: "<p>Voici les coordonnées que nous avons à votre dossier.</p>",
    clientQuestion: "Certaines de ces coordonnées doivent-elles être mises à jour?",
    alternateClientQuestion: "Certaines de vos propres coordonnées doivent-elles être mises à jour?",
    partnerQuestion: "Certaines coordonnées de {partnerName} doivent-elles être mises à jour?",
    alternatePartnerQuestion: "Certaines coordonnées de votre conjoint doivent-elles être mises à jour?",
    hint: "Indiquez les nouvelles coordonnées dans la case qui s’affiche lorsque vous répondez Oui.",
    showAdditionalInformation: true,
    fields: fieldsOf(
      CONTACT_FIELDS,
      [
        "Téléphone à domicile",
        "Téléphone au travail",
        "Téléphone cellulaire",
        "Courriel personnel",
        "Courriel professionnel",
        "Adresse de résidence",
        "Adresse postale",
      ],
      ["work_email"],
    ),
  },
  {
    order: 7,
    type: "personalDetailsQuestionPage",
    heading: "Vos renseignements personnels",
    introductionText: "<p>Voici les renseignements personnels que nous avons à votre dossier.</p>",
    clientQuestion: "Certains de ces renseignements doivent-ils être mis à jour?",
    alternateClientQuestion: "Certains de vos propres renseignements doivent-ils être mis à jour?",
    partnerQuestion: "Certains renseignements de {partnerName} doivent-ils être mis à jour?",
    alternatePartnerQuestion: "Certains renseignements de votre conjoint doivent-ils être mis à jour?",
    showAdditionalInformation: true,
    fields: fieldsOf(PERSONAL_FIELDS, [
      "Titre",
      "Prénom",
      "Second prénom",
      "Nom de famille",
      "Date de naissance",
      "Pays de naissance",
      "État civil",
      "Personnes à charge",
    ]),
  },
  {
    order: 8,
    type: "submission",
    heading: "Soumettre votre revue",
    introductionText:
      "<p>Merci d’avoir répondu aux questions. Lorsque vous soumettez, vos réponses sont transmises à votre conseiller par message sécurisé; vous le trouverez dans votre dossier Envoyés.</p>",
    changesText: "Vous nous avez signalé des changements. Votre conseiller communiquera avec vous pour en discuter.",
    noChangesText:
      "Vous nous avez indiqué que rien n’a changé. Votre conseiller communiquera tout de même avec vous si quelque chose requiert votre attention.",
  },
  {
    order: 9,
    type: "completion",
    heading: "Revue terminée",
    successText: "Merci. Votre revue annuelle a été transmise à votre conseiller.",
    errorText:
      "Une erreur s’est produite lors de l’envoi de votre réponse. Veuillez communiquer avec votre conseiller.",
    displayAdviserDetail: true,
    adviserDetailsHeader: "Votre conseiller",
  },
];

export const REVIEW_PAGES: Record<"en-GB" | "en-CA" | "en-AU" | "fr-CA", ReviewPageSeed[]> = {
  "en-GB": englishPages("adviser", "Dependants"),
  "en-CA": englishPages("advisor", "Dependents"),
  "en-AU": englishPages("adviser", "Dependants"),
  "fr-CA": FRENCH_PAGES,
};

export type ReviewPeople = { client: number; partner: number; factFind: number; robo: number };

/**
 * Seeds the review pages, the fact find's email template, and the notification fields of the demo
 * people. Run last: it adds rows after every other and updates only fields no earlier seed sets.
 */
export function seedReview(db: Db, people: ReviewPeople): void {
  for (const [locale, pages] of Object.entries(REVIEW_PAGES)) {
    for (const p of pages) {
      db.insert(reviewPages)
        .values({
          locale,
          orderNo: p.order,
          type: p.type,
          heading: p.heading,
          secondaryHeading: p.secondaryHeading ?? null,
          introductionText: p.introductionText ?? null,
          clientQuestion: p.clientQuestion ?? null,
          partnerQuestion: p.partnerQuestion ?? null,
          alternateClientQuestion: p.alternateClientQuestion ?? null,
          alternatePartnerQuestion: p.alternatePartnerQuestion ?? null,
          hint: p.hint ?? null,
          showAdditionalInformation: p.showAdditionalInformation ?? false,
          fields: JSON.stringify(p.fields ?? []),
          changesText: p.changesText ?? null,
          noChangesText: p.noChangesText ?? null,
          successText: p.successText ?? null,
          errorText: p.errorText ?? null,
          displayAdviserDetail: p.displayAdviserDetail ?? false,
          adviserDetailsHeader: p.adviserDetailsHeader ?? null,
        })
        .run();
    }
  }
  db.insert(emailTemplates)
    .values({
      id: FACT_FIND_TEMPLATE_ID,
      name: "Fact find: speak to adviser",
      subject: "{client_name} would like to speak to you about their fact find",
      body: "{client_name} has chosen to speak to you instead of completing their fact find online. Please contact them.",
      purpose: FACT_FIND_TEMPLATE_PURPOSE,
    })
    .run();
  // the Hartleys' annual review is open (demo.client answers for demo.partner, with view_partner)
  db.update(entities)
    .set({ reviewStatus: REVIEW_STATUS.inProgress, riskProfileIndex: 4 })
    .where(eq(entities.id, people.client))
    .run();
  db.update(entities)
    .set({ reviewStatus: REVIEW_STATUS.inProgress, riskProfileIndex: 5 })
    .where(eq(entities.id, people.partner))
    .run();
  // the notification panels: a fact find and an investment journey; a retirement health check under way
  db.update(entities)
    .set({ factFindStatus: "1", roboJourneyType: "investment", roboJourneyStatus: "enabled" })
    .where(eq(entities.id, people.factFind))
    .run();
  db.update(entities)
    .set({ roboJourneyType: "retirement_health_check", roboJourneyStatus: "in_progress" })
    .where(eq(entities.id, people.robo))
    .run();
}
