// GET /api/admin/whoami: who the caller is, how they authenticated, and what they may do.
import { defineRoute } from '../../../server/routes.ts'

export const GET = defineRoute({
  auth: 'any',
  summary: 'Who the caller is, how authenticated, and the capabilities held',
  handler: ({ caller }) => ({
    via: caller.via,
    person: caller.person && {
      id: caller.person.id,
      email: caller.person.email,
      name: caller.person.name,
      global_role: caller.person.global_role,
      units: caller.person.units,
    },
    key: caller.key,
    capabilities: [...caller.capabilities],
  }),
})
