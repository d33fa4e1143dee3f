// The admin dashboard: who you are, a glance at the leads, and the areas your capabilities open.
import type { GET as Summary } from '#routes/api/admin/summary.ts'
import { api, byId, h, whoami } from '../admin.ts'

const AREAS = [
  ['leads:read', '/admin/leads/', 'Leads', 'Families who sent the join form: claim one to follow up.'],
  ['announcements:write', '/admin/announcements/', 'Announcements', 'Short notices shown on every public page.'],
  ['calendar:write', '/admin/calendar/', 'Calendar', 'Meetings, campouts and events on the public calendar.'],
  ['socialposts:read', '/admin/posts/', 'Social posts', 'What the publisher will post, with cancel and reschedule.'],
  ['nearby:write', '/admin/nearby/', 'Nearby units', 'The public directory of other units near us.'],
  ['roster:write', '/admin/roster/', 'Roster', 'Households, scouts, dues and health forms for this program year.'],
  ['people:invite_leader', '/admin/people/', 'People', 'Invite leaders and families; reset links; roles.'],
  ['account:self', '/family/', 'Your family', 'Your own household and checklist.'],
  ['unit:write_own', '/admin/units/', 'Units', 'Meeting day, time and place shown on the public site.'],
  ['apikeys:own', '/admin/keys/', 'API keys', 'Keys for scripts, with the scopes you choose.'],
  ['settings:write', '/admin/settings/', 'Settings', 'Policy such as announcement caps and where keys work from.'],
  ['history:read', '/admin/history/', 'History', 'Who changed what, and when.'],
  ['api:docs', '/api/docs', 'API docs', 'Every admin route with its capability.'],
] as const

const me = await whoami()
if (me.capabilities.includes('leads:read')) {
  const summary = await api<typeof Summary>('GET', '/api/admin/summary')
  if (summary.ok) {
    const { leads, failed_mirror_copies, live_announcements } = summary.body
    byId('glance').textContent =
      `${leads.unclaimed} unclaimed leads (${leads.new_this_week} new this week), ${leads.claimed_by_me} claimed by you, ` +
      `${failed_mirror_copies} failed spreadsheet copies, ${live_announcements} live announcements.`
  }
}
const roles = [me.person?.global_role, ...(me.person?.units ?? []).map((u) => `${u.role} of the ${u.slug}`)].filter(Boolean)
byId('me').textContent = `Signed in as ${me.person?.email ?? me.via}${roles.length ? ` (${roles.join(', ')})` : ''}.`
byId('areas').append(
  ...AREAS.filter(([cap]) => me.capabilities.includes(cap)).map(([, href, name, about]) =>
    h('li', { class: 'card' }, h('h2', {}, h('a', { href }, name)), h('p', {}, about)),
  ),
)
