// Request schemas for people: role grants as invites and role changes take them.
import { t } from '../schemas.ts'

export const GlobalRoleSchema = t.Union([t.Literal('owner'), t.Literal('admin'), t.Null()])

export const UnitGrantSchema = t.Object(
  {
    unit_id: t.Integer({ minimum: 1 }),
    role: t.Union([t.Literal('member'), t.Literal('leader')]),
    title: t.Optional(t.Union([t.String({ maxLength: 100 }), t.Null()])),
  },
  { additionalProperties: false },
)
