// Type-level tests of the admin client's `api` (checked by `tsc -p .`, never run): a call is typed by the route its
// method and path reach, and a wrong path, a method the route lacks or a wrong body does not compile. Each
// `@ts-expect-error` fails the typecheck if its line ever compiles, so the check cannot silently stop working.
import { api } from '../../site/src/lib/admin.ts'

declare const id: number

export async function calls() {
  // The answer is the route's own: a lead's list, a claimed lead, the signed-in person.
  const leads = await api('GET', `/api/admin/leads?${new URLSearchParams({ q: 'x' })}`)
  if (leads.ok) leads.body.leads satisfies { id: number }[]
  const claimed = await api('POST', `/api/admin/leads/${id}/claim`)
  if (claimed.ok) claimed.body.lead.id satisfies number
  const me = await api('GET', '/api/admin/whoami')
  if (me.ok) me.body.capabilities satisfies readonly string[]
  await api('PATCH', `/api/admin/roster/households/${id}`, { active: false })

  // @ts-expect-error a path no route has
  await api('GET', `/api/admin/rosterz/households/${id}`)
  // @ts-expect-error a method the route lacks: leads are never deleted
  await api('DELETE', `/api/admin/leads/${id}`)
  // @ts-expect-error the narrowest route decides: claiming is a POST, though GET /api/admin/leads/{id} also matches
  await api('GET', `/api/admin/leads/${id}/claim`)
  // @ts-expect-error a body the route does not take
  await api('PATCH', `/api/admin/roster/households/${id}`, { active: 'no' })
  // @ts-expect-error a body missing where the route needs one
  await api('POST', '/api/admin/announcements')
  // @ts-expect-error a body sent to a route that takes none
  await api('POST', `/api/admin/leads/${id}/claim`, { now: true })
  // @ts-expect-error a path of any string cannot be checked
  await api('GET', String(id))
}
