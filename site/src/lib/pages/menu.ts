// The admin menu on every admin page: open on a wide screen, one "Admin menu" row on a phone; each link shows
// only when the signed-in credential holds what it needs; the current page is marked. Above the page, a banner
// while the unit asks the person for a second factor they have not added.
import { byId, h, holds, SITE_ZONE, whoami } from '../admin.ts'

const menu = document.getElementById('admin-menu') as HTMLDetailsElement
const wide = matchMedia('(min-width: 48rem)')
menu.open = wide.matches
wide.addEventListener('change', () => (menu.open = wide.matches))
for (const link of menu.querySelectorAll<HTMLAnchorElement>('a'))
  if (link.pathname === location.pathname) link.setAttribute('aria-current', 'page')

// With no signal the links stay hidden: a trip roster kept on the phone still opens (lib/offline-roster.ts).
const me = await whoami().catch(() => null)
if (me) for (const link of menu.querySelectorAll<HTMLElement>('[data-needs]')) link.hidden = !holds(me, link.dataset.needs)

const asked = me?.second_factor
if (asked?.required && !asked.enrolled) {
  const by = new Date(asked.due_at!).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: SITE_ZONE })
  const onAccount = location.pathname === '/admin/account/'
  const banner = byId('second-factor-banner')
  banner.replaceChildren(
    h(
      'p',
      {},
      asked.locked
        ? 'Your unit asks people with your role to sign in with a second factor. Until you add one, only your account page opens.'
        : `Your unit asks people with your role to sign in with a second factor: please add one by ${by}. After that day only your account page opens until you do.`,
    ),
  )
  if (!onAccount) banner.append(h('p', {}, h('a', { href: '/admin/account/' }, 'Add an authenticator app or a passkey')))
  banner.hidden = false
}
