// The admin menu on every admin page: open on a wide screen, one "Admin menu" row on a phone; each link shows
// only when the signed-in credential holds what it needs; the current page is marked.
import { holds, whoami } from '../admin.ts'

const menu = document.getElementById('admin-menu') as HTMLDetailsElement
const wide = matchMedia('(min-width: 48rem)')
menu.open = wide.matches
wide.addEventListener('change', () => (menu.open = wide.matches))
for (const link of menu.querySelectorAll<HTMLAnchorElement>('a'))
  if (link.pathname === location.pathname) link.setAttribute('aria-current', 'page')

const me = await whoami()
for (const link of menu.querySelectorAll<HTMLElement>('[data-needs]')) link.hidden = !holds(me, link.dataset.needs)
