// Names and places for the generated clients of the demo data set (realistic UK data, fictitious people).

export const FIRST_NAMES = [
  ["Oliver", "Mr"], ["Amelia", "Mrs"], ["George", "Mr"], ["Isla", "Ms"], ["Harry", "Mr"], ["Ava", "Miss"],
  ["Noah", "Mr"], ["Mia", "Ms"], ["Jack", "Mr"], ["Sophie", "Mrs"], ["Charlie", "Mr"], ["Grace", "Ms"],
  ["Leo", "Mr"], ["Freya", "Miss"], ["Oscar", "Mr"], ["Emily", "Mrs"], ["Arthur", "Mr"], ["Poppy", "Ms"],
  ["William", "Mr"], ["Evie", "Miss"], ["Henry", "Mr"], ["Ella", "Mrs"], ["Alfie", "Mr"], ["Lily", "Ms"],
  ["Rhys", "Mr"], ["Niamh", "Ms"], ["Callum", "Mr"], ["Eilidh", "Mrs"], ["Rajesh", "Dr"], ["Fatima", "Mrs"],
  ["Kwame", "Mr"], ["Hannah", "Dr"], ["Edward", "Mr"], ["Margaret", "Mrs"], ["David", "Mr"], ["Catherine", "Ms"],
] as const;

export const LAST_NAMES = [
  "Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Evans", "Roberts", "Walker", "Wright",
  "Robinson", "Thompson", "White", "Hughes", "Edwards", "Green", "Hall", "Wood", "Harris", "Clarke",
  "Patel", "Khan", "Murphy", "O'Brien", "Campbell", "MacLeod", "Fraser", "Ahmed", "Mensah", "Davies",
] as const;

/** Fixed clients with accented names, so accent-insensitive search always has something to find. */
export const ACCENTED_CLIENTS = [
  { title: "Ms", first: "Zoë", last: "Brontë" },
  { title: "Mr", first: "José", last: "Núñez" },
  { title: "Mrs", first: "Siân", last: "Llewellyn" },
  { title: "Ms", first: "Chloé", last: "Lefèvre" },
  { title: "Mr", first: "Seán", last: "Ó Briain" },
  { title: "Mrs", first: "Renée", last: "Gauthier-Müller" },
] as const;

/** Outward codes with their post towns and counties. */
export const PLACES = [
  ["SW1A", "London", "Greater London"], ["EC2M", "London", "Greater London"], ["N1", "London", "Greater London"],
  ["SE10", "London", "Greater London"], ["M20", "Manchester", "Greater Manchester"], ["LS6", "Leeds", "West Yorkshire"],
  ["B15", "Birmingham", "West Midlands"], ["BS8", "Bristol", "Bristol"], ["EH3", "Edinburgh", "City of Edinburgh"],
  ["G12", "Glasgow", "Glasgow City"], ["CF10", "Cardiff", "Cardiff"], ["BT9", "Belfast", "County Antrim"],
  ["OX2", "Oxford", "Oxfordshire"], ["CB2", "Cambridge", "Cambridgeshire"], ["YO1", "York", "North Yorkshire"],
  ["NE2", "Newcastle upon Tyne", "Tyne and Wear"], ["BA1", "Bath", "Somerset"], ["GU1", "Guildford", "Surrey"],
  ["TN1", "Tunbridge Wells", "Kent"], ["RG9", "Henley-on-Thames", "Oxfordshire"],
] as const;

export const STREETS = [
  "Church Road", "Station Road", "High Street", "Victoria Road", "Manor Way", "The Green", "Mill Lane",
  "Park Avenue", "Kings Road", "Queensway", "Orchard Close", "Windsor Gardens", "Chestnut Grove", "Albert Terrace",
] as const;

export const INWARD_LETTERS = "ABDEFGHJLNPQRSTUWXYZ";

export const MARITAL_STATUSES = ["Married", "Single", "Civil partnership", "Divorced", "Widowed", "Cohabiting"] as const;
