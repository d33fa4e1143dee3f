// The admin dashboard: who you are, a glance at the leads, and a card per area your capabilities open (the areas
// are the admin menu's links, with their data-about).
import type { GET as Summary } from '#routes/api/admin/summary.ts'
import { startPage } from '#server/auth/capabilities.ts'
import { api, byId, h, holds, whoami } from '../admin.ts'

const me = await whoami()
// A family account's pages start at its family page, not here.
if (startPage(me.capabilities) === '/family/') location.replace('/family/')
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
const areas = [...document.querySelectorAll<HTMLAnchorElement>('.admin-nav a[data-about]')]
byId('areas').append(
  ...areas
    .filter((a) => holds(me, a.dataset.needs))
    .map((a) =>
      h(
        'li',
        { class: 'card' },
        h('h2', {}, h('a', { href: a.getAttribute('href') ?? '' }, a.textContent ?? '')),
        h('p', {}, a.dataset.about ?? ''),
      ),
    ),
)
