// GET/PATCH /api/admin/family/households/:id: a linked parent reads and keeps their own household's contacts and their scouts'
// preferred names and photo consent.
import { changeFamilyHousehold, familyHousehold } from '#server/family/details.ts'
import { FamilyHouseholdChange, FamilyHouseholdView } from '#server/family/schemas.ts'
import { consentChanged } from '#server/photos/public.ts'
import { defineRoute, ok } from '#server/routes.ts'
import { IdParams } from '#server/schemas.ts'

export const GET = defineRoute('account:self', 'Read your household', {
  operationId: 'getFamilyHousehold',
  description: 'One household your account is linked to, as the family page shows it (and as the PATCH answers it).',
  person: true,
  params: IdParams,
  responses: ok(FamilyHouseholdView, 'The household as your family sees it', { 404: 'Not a household your account is linked to' }),
  handler: ({ db, caller, params }) => familyHousehold(db, caller, params.id),
})

export const PATCH = defineRoute('account:self', "Change your household's details", {
  operationId: 'updateFamilyHousehold',
  description:
    "Your household's email, phone, second parent and emergency contact, and each scout's preferred name and photo consent. " +
    "Only a household your account is linked to; names, units and leaders' notes stay with the leaders. " +
    'A scout id not of this household is 422.',
  person: true,
  params: IdParams,
  body: FamilyHouseholdChange,
  responses: ok(FamilyHouseholdView, 'The household as your family sees it', { 404: 'Not a household your account is linked to' }),
  async handler({ db, caller, params, body, publicDataChanged }) {
    const changed = await changeFamilyHousehold(db, caller, params.id, body)
    if (changed.consentChanged) await consentChanged(db, publicDataChanged)
    return changed.household
  },
})
