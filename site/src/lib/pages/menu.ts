// The admin menu on every admin page: each link shows only when the signed-in credential holds what it needs.
import { holds, whoami } from '../admin.ts'

const me = await whoami()
for (const link of document.querySelectorAll<HTMLElement>('[data-needs]')) link.hidden = !holds(me, link.dataset.needs)
