// The site's text pages (spec 000 §2 public pages) in each locale the portal offers.
type Page = { title: string; html: string };
type Pages = Record<"site-terms" | "privacy-policy" | "cookie-policy" | "accessibility", Page>;

type EnglishRegion = {
  regulator: string;
  privacyLaw: string;
  complaintsBody: string;
  phone: string;
  organise: string;
  authorised: string;
  recognise: string;
};

const REGIONS: Record<"en-GB" | "en-CA" | "en-AU", EnglishRegion> = {
  "en-GB": {
    regulator: "the Financial Conduct Authority (FCA)",
    privacyLaw: "the UK General Data Protection Regulation and the Data Protection Act 2018",
    complaintsBody: "the Information Commissioner's Office (ico.org.uk)",
    phone: "020 7946 0800",
    organise: "organise",
    authorised: "authorised",
    recognise: "recognise",
  },
  "en-CA": {
    regulator: "the Canadian Investment Regulatory Organization (CIRO)",
    privacyLaw: "the Personal Information Protection and Electronic Documents Act (PIPEDA)",
    complaintsBody: "the Office of the Privacy Commissioner of Canada (priv.gc.ca)",
    phone: "1-800-555-0148",
    organise: "organize",
    authorised: "authorized",
    recognise: "recognize",
  },
  "en-AU": {
    regulator: "the Australian Securities and Investments Commission (ASIC)",
    privacyLaw: "the Privacy Act 1988 (Cth) and the Australian Privacy Principles",
    complaintsBody: "the Office of the Australian Information Commissioner (oaic.gov.au)",
    phone: "1300 555 014",
    organise: "organise",
    authorised: "authorised",
    recognise: "recognise",
  },
};

function englishPages(firm: string, r: EnglishRegion): Pages {
  return {
    "site-terms": {
      title: "Terms of use",
      html: `<h2>About these terms</h2>
<p>These terms apply to your use of Client Online, the secure portal provided by ${firm}. By signing in you agree to them. Please read them carefully and keep a copy for your records.</p>
<h2>Your information in Client Online</h2>
<p>Client Online shows information about your investments, pensions and other arrangements as held on our planning platform. Valuations are indicative, are based on the most recent prices available to us and may differ from the values your product providers report. Client Online is not a substitute for the statements your providers send you.</p>
<h2>Keeping your account secure</h2>
<p>You must keep your username, password and any security codes private and must not let anyone else use your account. If you think someone else knows your details, change your password straight away and contact your adviser. We will never ask you for your password by phone or email.</p>
<h2>Messages and documents</h2>
<p>Secure messages sent through Client Online are not monitored outside office hours. Do not use them for instructions that need immediate action, such as selling investments; please telephone your adviser instead.</p>
<h2>Availability</h2>
<p>We aim to keep Client Online available at all times but may suspend it for maintenance or for reasons outside our control. We are not liable for any loss arising from the service being unavailable.</p>
<h2>Regulation</h2>
<p>${firm} is ${r.authorised} and regulated by ${r.regulator}. Nothing in Client Online is a personal recommendation unless your adviser has told you so in writing.</p>`,
    },
    "privacy-policy": {
      title: "Privacy policy",
      html: `<h2>Who we are</h2>
<p>${firm} is responsible for the personal information shown in Client Online and processes it in line with ${r.privacyLaw}.</p>
<h2>What we hold and why</h2>
<p>We hold your contact details, personal details, information about your financial arrangements and the messages you exchange with your adviser. We use them to provide financial advice and the services you have asked for, to meet our legal and regulatory obligations, and to keep your account secure.</p>
<h2>Who we share it with</h2>
<p>We share your information only with the product providers and platforms that administer your arrangements, with service providers that host Client Online on our behalf under contract, and with regulators where the law requires it. We do not sell your information.</p>
<h2>How long we keep it</h2>
<p>We keep your information for as long as you are our client and afterwards for as long as our regulatory record-keeping rules require.</p>
<h2>Your rights</h2>
<p>You can ask for a copy of your information, ask us to correct it, and in some cases ask us to delete it or stop using it. To do so, contact your adviser or call us on ${r.phone}. If you are unhappy with how we have handled your information you can complain to ${r.complaintsBody}.</p>`,
    },
    "cookie-policy": {
      title: "Cookie policy",
      html: `<h2>How Client Online uses cookies</h2>
<p>Client Online uses a small number of cookies that are strictly necessary for the service to work. They keep you signed in, protect forms against misuse and remember messages shown to you after an action. They expire when you sign out or after a period without activity.</p>
<h2>What we do not use</h2>
<p>We do not use advertising cookies and we do not share cookie information with advertisers.</p>
<h2>Managing cookies</h2>
<p>You can block cookies in your browser settings, but Client Online cannot sign you in without its essential cookies. We will tell you if we ever introduce cookies that need your consent, and ask you before setting them.</p>`,
    },
    accessibility: {
      title: "Accessibility statement",
      html: `<h2>Using Client Online</h2>
<p>We want as many people as possible to be able to use Client Online. You should be able to change colours and text size, zoom in to 400% without text spilling off the screen, and navigate the whole portal using just a keyboard or speech recognition software or a screen reader. Every page works without JavaScript, and every chart has a table with the same figures.</p>
<h2>How accessible Client Online is</h2>
<p>We aim to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA. We test each release with automated checks and with assistive technology, and we ${r.recognise} that some documents uploaded by providers, such as older PDF statements, may not be fully accessible.</p>
<h2>Feedback and contact</h2>
<p>If you need information in a different format, such as large print or audio, or if you find a problem that we have not listed, please contact your adviser or call ${r.phone}. We will consider your request and reply within five working days, and we can ${r.organise} another way for you to receive the information.</p>`,
    },
  };
}

function frenchPages(firm: string): Pages {
  return {
    "site-terms": {
      title: "Conditions d'utilisation",
      html: `<h2>À propos des présentes conditions</h2>
<p>Les présentes conditions s'appliquent à votre utilisation de Client Online, le portail sécurisé offert par ${firm}. En ouvrant une session, vous les acceptez. Veuillez les lire attentivement et en conserver une copie.</p>
<h2>Vos renseignements dans Client Online</h2>
<p>Client Online présente des renseignements sur vos placements, vos régimes de retraite et vos autres produits, tels qu'ils figurent sur notre plateforme de planification. Les évaluations sont fournies à titre indicatif, sont fondées sur les derniers prix dont nous disposons et peuvent différer des valeurs déclarées par les fournisseurs de vos produits. Client Online ne remplace pas les relevés que vos fournisseurs vous transmettent.</p>
<h2>Protéger votre compte</h2>
<p>Vous devez garder confidentiels votre nom d'utilisateur, votre mot de passe et vos codes de sécurité, et ne permettre à personne d'autre d'utiliser votre compte. Si vous croyez qu'une autre personne connaît vos renseignements, changez immédiatement votre mot de passe et communiquez avec votre conseiller. Nous ne vous demanderons jamais votre mot de passe par téléphone ou par courriel.</p>
<h2>Messages et documents</h2>
<p>Les messages sécurisés envoyés par Client Online ne sont pas surveillés en dehors des heures d'ouverture. Ne les utilisez pas pour des instructions qui exigent une action immédiate, comme la vente de placements; téléphonez plutôt à votre conseiller.</p>
<h2>Disponibilité</h2>
<p>Nous visons à maintenir Client Online accessible en tout temps, mais nous pouvons en suspendre l'accès pour des travaux d'entretien ou pour des raisons indépendantes de notre volonté. Nous ne sommes pas responsables des pertes découlant de l'indisponibilité du service.</p>
<h2>Réglementation</h2>
<p>${firm} est une société autorisée et réglementée par l'Organisme canadien de réglementation des investissements (OCRI). Aucun contenu de Client Online ne constitue une recommandation personnalisée, à moins que votre conseiller ne vous l'ait confirmé par écrit.</p>`,
    },
    "privacy-policy": {
      title: "Politique de confidentialité",
      html: `<h2>Qui nous sommes</h2>
<p>${firm} est responsable des renseignements personnels présentés dans Client Online et les traite conformément à la Loi sur la protection des renseignements personnels et les documents électroniques (LPRPDE) et aux lois provinciales applicables, dont la Loi 25 au Québec.</p>
<h2>Les renseignements que nous détenons et pourquoi</h2>
<p>Nous détenons vos coordonnées, vos renseignements personnels, des renseignements sur vos produits financiers et les messages que vous échangez avec votre conseiller. Nous les utilisons pour vous fournir des conseils financiers et les services que vous avez demandés, pour respecter nos obligations légales et réglementaires et pour protéger votre compte.</p>
<h2>Avec qui nous les communiquons</h2>
<p>Nous ne communiquons vos renseignements qu'aux fournisseurs de produits et aux plateformes qui administrent vos placements, aux fournisseurs de services qui hébergent Client Online pour notre compte en vertu d'un contrat, et aux organismes de réglementation lorsque la loi l'exige. Nous ne vendons jamais vos renseignements.</p>
<h2>Durée de conservation</h2>
<p>Nous conservons vos renseignements tant que vous êtes notre client, puis aussi longtemps que l'exigent nos règles de tenue de dossiers.</p>
<h2>Vos droits</h2>
<p>Vous pouvez demander une copie de vos renseignements, en demander la correction et, dans certains cas, en demander la suppression. Pour ce faire, communiquez avec votre conseiller ou appelez-nous au 1-800-555-0148. Si vous n'êtes pas satisfait de la façon dont nous avons traité vos renseignements, vous pouvez porter plainte auprès du Commissariat à la protection de la vie privée du Canada (priv.gc.ca).</p>`,
    },
    "cookie-policy": {
      title: "Politique relative aux témoins",
      html: `<h2>Utilisation des témoins par Client Online</h2>
<p>Client Online utilise un petit nombre de témoins (cookies) strictement nécessaires au fonctionnement du service. Ils maintiennent votre session ouverte, protègent les formulaires contre les utilisations abusives et conservent les messages affichés après une action. Ils expirent lorsque vous fermez votre session ou après une période d'inactivité.</p>
<h2>Ce que nous n'utilisons pas</h2>
<p>Nous n'utilisons aucun témoin publicitaire et nous ne communiquons aucun renseignement tiré des témoins à des annonceurs.</p>
<h2>Gérer les témoins</h2>
<p>Vous pouvez bloquer les témoins dans les paramètres de votre navigateur, mais Client Online ne peut pas ouvrir votre session sans ses témoins essentiels. Nous vous aviserons si nous ajoutons un jour des témoins qui exigent votre consentement, et nous vous le demanderons avant de les utiliser.</p>`,
    },
    accessibility: {
      title: "Déclaration d'accessibilité",
      html: `<h2>Utiliser Client Online</h2>
<p>Nous voulons que le plus grand nombre possible de personnes puissent utiliser Client Online. Vous devriez pouvoir modifier les couleurs et la taille du texte, agrandir l'affichage jusqu'à 400 % sans que le texte déborde de l'écran, et parcourir tout le portail au clavier seulement, avec un logiciel de reconnaissance vocale ou avec un lecteur d'écran. Chaque page fonctionne sans JavaScript, et chaque graphique est accompagné d'un tableau présentant les mêmes données.</p>
<h2>Niveau d'accessibilité de Client Online</h2>
<p>Nous visons la conformité aux Règles pour l'accessibilité des contenus Web (WCAG) 2.2, niveau AA. Nous vérifions chaque version au moyen de tests automatisés et de technologies d'assistance, et nous reconnaissons que certains documents transmis par les fournisseurs, comme d'anciens relevés en PDF, peuvent ne pas être entièrement accessibles.</p>
<h2>Commentaires et coordonnées</h2>
<p>Si vous avez besoin de renseignements dans un autre format, comme en gros caractères ou en version audio, ou si vous constatez un problème qui ne figure pas ici, communiquez avec votre conseiller ou appelez le 1-800-555-0148. Nous étudierons votre demande et vous répondrons dans un délai de cinq jours ouvrables.</p>`,
    },
  };
}

/** spec 000 §2: the maintenance page's heading and HTML come from content. */
function maintenancePage(firm: string, r: EnglishRegion | null): Page {
  if (!r) {
    return {
      title: "Client Online est en maintenance",
      html: `<p>Nous effectuons des travaux d'entretien planifiés sur Client Online. Le service sera rétabli sous peu; vos renseignements ne sont pas touchés.</p>
<p>Pour toute question urgente, communiquez avec votre conseiller ou appelez ${firm} au 1-800-555-0148.</p>`,
    };
  }
  return {
    title: "Client Online is down for maintenance",
    html: `<p>We are carrying out planned maintenance on Client Online. It will be back shortly; your information is not affected.</p>
<p>If your question is urgent, please contact your adviser or call ${firm} on ${r.phone}.</p>`,
  };
}

/** spec 001 §2.1 and §2.5: the basis-of-valuation block under the home page and the balance sheet. */
function basisOfValuation(french: boolean): Page {
  if (french) {
    return {
      title: "Base d'évaluation",
      html: `<p>Les placements gérés sont évalués au cours de clôture du dernier jour ouvrable (ou au cours différé lorsque votre accès le permet) et convertis dans votre monnaie de déclaration au taux de change de la date d'évaluation. Le rendement pondéré dans le temps exclut l'effet des dépôts et des retraits; les périodes de plus d'un an indiquent aussi le rendement annualisé.</p>
<p>Les autres actifs et passifs sont indiqués à la dernière valeur fournie par vous ou par l'institution, à la date d'évaluation affichée. Les valeurs sont fournies à titre indicatif et ne constituent pas un relevé officiel.</p>`,
    };
  }
  return {
    title: "Basis of valuation",
    html: `<p>Managed investments are valued at the last business day's closing price (or the delayed price where your access allows it) and converted to your reporting currency at the exchange rate of the valuation date. Time-weighted performance excludes the effect of money paid in and taken out; periods of more than a year also show the annualised figure.</p>
<p>Other assets and liabilities show the latest value supplied by you or the provider, at the valuation date shown. Values are for information and are not a formal statement.</p>`,
  };
}

/**
 * spec 002 §2 and §4: the announcement panel's title and text, shown to clients at the Messages and
 * Not Assigned levels (docs/decisions/096). A new title or text is a new announcement (its hash).
 */
function announcement(firm: string, french: boolean): Page {
  if (french) {
    return {
      title: "Nos bureaux pendant les Fêtes",
      html: `<p>Les bureaux de ${firm} seront fermés du 25 décembre au 1er janvier. Vos messages sécurisés seront traités dès notre retour; pour toute question urgente, appelez-nous au 1-800-555-0148.</p>`,
    };
  }
  return {
    title: "Our offices over the holidays",
    html: `<p>The offices of ${firm} will be closed from 25 December to 1 January. Secure messages sent while we are closed will be answered when we return; if your question is urgent, please call your adviser.</p>`,
  };
}

/**
 * spec 002 §2: the fact find, automated personal advice and robo advice journeys run on another
 * system; /core/factfind, /core/apa and /core/robo introduce them and link to the address in the
 * site settings (factFindUrl, apaUrl, roboUrl; docs/decisions/096).
 */
function journeys(french: boolean): Record<"journey-factfind" | "journey-apa" | "journey-robo", Page> {
  if (french) {
    return {
      "journey-factfind": {
        title: "Collecte de renseignements",
        html: `<p>La collecte de renseignements permet à votre conseiller de mieux connaître votre situation : vos revenus, vos dépenses, vos biens, vos dettes et vos objectifs. Prévoyez environ 30 minutes. Vous pouvez enregistrer vos réponses et revenir plus tard.</p>
<p>Le questionnaire se trouve sur le site sécurisé de nos parcours; vous y serez invité à ouvrir une session avec vos identifiants de Client Online.</p>`,
      },
      "journey-apa": {
        title: "Conseils personnalisés automatisés",
        html: `<p>Répondez à quelques questions sur vos objectifs de placement, votre horizon et votre tolérance au risque, et recevez une recommandation de placement adaptée à votre situation. Votre conseiller passera en revue la recommandation avec vous avant toute opération.</p>
<p>Ce service se trouve sur le site sécurisé de nos parcours.</p>`,
      },
      "journey-robo": {
        title: "Bilan retraite",
        html: `<p>Faites le point sur votre épargne-retraite : indiquez à quel âge vous souhaitez prendre votre retraite et de quel revenu vous aurez besoin, et découvrez si vous êtes en bonne voie. Prévoyez environ 15 minutes.</p>
<p>Ce service se trouve sur le site sécurisé de nos parcours.</p>`,
      },
    };
  }
  return {
    "journey-factfind": {
      title: "Fact find",
      html: `<p>The fact find helps your adviser understand your circumstances: your income and spending, what you own and owe, and what you want to achieve. Allow about 30 minutes; you can save your answers and come back later.</p>
<p>The questionnaire is on our secure journeys site, where you sign in with your Client Online details.</p>`,
    },
    "journey-apa": {
      title: "Automated personal advice",
      html: `<p>Answer a few questions about your investment goals, how long you plan to invest and how much risk you are comfortable with, and receive an investment recommendation suited to you. Your adviser reviews the recommendation with you before anything is bought or sold.</p>
<p>This service is on our secure journeys site.</p>`,
    },
    "journey-robo": {
      title: "Retirement health check",
      html: `<p>See where your retirement savings stand: tell us when you would like to retire and the income you will need, and find out whether you are on track. Allow about 15 minutes.</p>
<p>This service is on our secure journeys site.</p>`,
    },
  };
}

type ServicePages = { maintenance: Page; "basis-of-valuation": Page; announcement: Page } & ReturnType<typeof journeys>;

export function sitePages(firm: string): Record<"en-GB" | "en-CA" | "en-AU" | "fr-CA", Pages & ServicePages> {
  return {
    "en-GB": {
      ...englishPages(firm, REGIONS["en-GB"]),
      maintenance: maintenancePage(firm, REGIONS["en-GB"]),
      "basis-of-valuation": basisOfValuation(false),
      announcement: announcement(firm, false),
      ...journeys(false),
    },
    "en-CA": {
      ...englishPages(firm, REGIONS["en-CA"]),
      maintenance: maintenancePage(firm, REGIONS["en-CA"]),
      "basis-of-valuation": basisOfValuation(false),
      announcement: announcement(firm, false),
      ...journeys(false),
    },
    "en-AU": {
      ...englishPages(firm, REGIONS["en-AU"]),
      maintenance: maintenancePage(firm, REGIONS["en-AU"]),
      "basis-of-valuation": basisOfValuation(false),
      announcement: announcement(firm, false),
      ...journeys(false),
    },
    "fr-CA": {
      ...frenchPages(firm),
      maintenance: maintenancePage(firm, null),
      "basis-of-valuation": basisOfValuation(true),
      announcement: announcement(firm, true),
      ...journeys(true),
    },
  };
}
