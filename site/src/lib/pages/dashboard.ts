// The admin dashboard: who you are, a glance at the leads, and a card per area your capabilities open (the areas
// are the admin menu's links, with their data-about).
import type { GET as Settings } from '#routes/api/admin/settings/index.ts'
import type { GET as Summary } from '#routes/api/admin/summary.ts'
import { startPage } from '#server/auth/capabilities.ts'
import { api, byId, h, holds, signedInFor } from '../admin.ts'

const me = await signedInFor()
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
/** A recommendation card: what to do, why, and where. */
const advise = (title: string, why: string, href: string, action: string) =>
  byId('advice').append(h('li', { class: 'card' }, h('h2', {}, title), h('p', {}, why), h('a', { class: 'cta', href }, action)))
if (me.person?.global_role === 'owner' && holds(me, 'settings:write')) {
  const settings = await api<typeof Settings>('GET', '/api/admin/settings')
  if (settings.ok && settings.body.settings.find((x) => x.key === 'security.second_factor')?.value === 'optional')
    advise(
      'Ask admins for a second factor',
      'Owners and admins see every family. With the setting “Second factor”, they sign in with a code from their phone or a passkey as well as a password, so a guessed or leaked password is not enough.',
      '/admin/settings/#form-security-second_factor',
      'Choose who needs one',
    )
}
if (me.second_factor && !me.second_factor.enrolled && !me.second_factor.required)
  advise(
    'Add a second factor to your account',
    'An authenticator app or a passkey keeps your account safe even if someone learns your password.',
    '/admin/account/',
    'Add one',
  )
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
