import { z } from "zod/v4";
import type { PlanningClient } from "./client.server";
import { ClientAccessLevel, WireDate } from "./wire";

// spec 002 §3 "Personal details", "Contact (personal)", "Address" and spec 000 §4 client group
// members (docs/platform-api.md, Entities).

export const PersonalDetailsAnswer = z.object({
  id: z.number(),
  title: z.string().nullish(),
  first_name: z.string().nullish(),
  middle_name: z.string().nullish(),
  last_name: z.string().nullish(),
  preferred_name: z.string().nullish(),
  display_name: z.string().nullish(),
  dob: WireDate.nullish(),
  country_of_birth: z.string().nullish(),
  preferred_email: z.string().nullish(),
  marital_status: z.string().nullish(),
  dependents: z.number().nullish(),
  client_access_level: ClientAccessLevel.nullish(),
});
export type PersonalDetailsAnswer = z.output<typeof PersonalDetailsAnswer>;

export const ContactAnswer = z.object({
  id: z.number().optional(),
  type: z.string(),
  value: z.string().nullish(),
  preferred: z.boolean().nullish(),
  country_code: z.string().nullish(),
});
export type ContactAnswer = z.output<typeof ContactAnswer>;
const ContactAnswers = z.array(ContactAnswer);

export const AddressAnswer = z.object({
  id: z.number().optional(),
  type: z.number(),
  block: z.string().nullish(),
  street_name: z.string().nullish(),
  street_name_2: z.string().nullish(),
  street: z.string().nullish(),
  suburb: z.string().nullish(),
  state: z.string().nullish(),
  country: z.string().nullish(),
  postcode: z.string().nullish(),
  preferred: z.boolean().nullish(),
  status: z.string().nullish(),
});
export type AddressAnswer = z.output<typeof AddressAnswer>;
const AddressAnswers = z.array(AddressAnswer);

const clientPath = (entityId: number) => `entity/client-v3/${entityId}`;

/** The entity's details, contacts and addresses: three calls in one round trip. */
export async function fetchPersonalDetails(planning: PlanningClient, entityId: number) {
  return planning.batch({
    details: { url: clientPath(entityId), schema: PersonalDetailsAnswer },
    contacts: { url: `${clientPath(entityId)}/contact`, schema: ContactAnswers },
    addresses: { url: `${clientPath(entityId)}/address`, schema: AddressAnswers },
  });
}

/** Just the entity's own record (name, level). */
export async function fetchClient(planning: PlanningClient, entityId: number) {
  return planning.get(`resourceful/${clientPath(entityId)}`, PersonalDetailsAnswer);
}

export const ClientGroupMember = z.object({
  entity_id: z.number(),
  display_name: z.string(),
  first_name: z.string().nullish(),
  last_name: z.string().nullish(),
  relationship: z.string().nullish(),
  login_accessible: z.boolean(),
});
export type ClientGroupMember = z.output<typeof ClientGroupMember>;
export const ClientGroupMembers = z.array(ClientGroupMember);
