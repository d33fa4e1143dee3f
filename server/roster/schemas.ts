// Household and scout fields, shared by create and edit.
import { t } from '../schemas.ts'

const text = (max: number) => t.Optional(t.Union([t.String({ maxLength: max }), t.Null()]))

export const householdFields = {
  email: t.Optional(t.Union([t.String({ format: 'email', maxLength: 254, error: 'must be an email address' }), t.Null()])),
  phone: t.Optional(t.Union([t.String({ pattern: '^[0-9+()\\-.\\s]{7,40}$', error: 'must be a phone number' }), t.Null()])),
  second_parent: text(100),
  notes: text(2000),
}
export const ParentName = t.String({ minLength: 1, maxLength: 100 })

export const scoutFields = {
  last_name: text(100),
  den: text(50),
  org_member_id: t.Optional(t.Union([t.String({ pattern: '^[0-9]{6,12}$', error: 'must be 6 to 12 digits' }), t.Null()])),
}
export const FirstName = t.String({ minLength: 1, maxLength: 100 })
export const UnitId = t.Integer({ minimum: 1 })
