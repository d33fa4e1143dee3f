// The admin dashboard: the owner's getting-started steps until each is done or dismissed, who you are, a glance at
// the leads, and the areas your capabilities open (the admin menu's links, with their data-about): the six you use
// most as cards, the others as one line of links.
import { startPage } from '#server/auth/capabilities.ts'
import type { AnswerOf } from '#server/routes.ts'
import { listWords, plural } from '#server/words.ts'
import { api, byId, h, holds, signedInFor, type Route, showOutcome } from '../admin.ts'

type Step = AnswerOf<Route<'GET /api/admin/setup'>>['steps'][number]
/** Cards shown for the most-used areas; the rest are links. */
const CARDS = 6

const me = await signedInFor('/admin/')
// A family account's pages start at its family page, not here.
if (startPage(me.capabilities) === '/family/') location.replace('/family/')

/** The steps not yet dismissed, while any of them is still to do; the section hides when none is. */
function showSetup(steps: Step[]) {
  const shown = steps.filter((s) => !s.dismissed)
  const open = shown.filter((s) => !s.done)
  byId('setup').hidden = open.length === 0
  byId('setup-count').textContent = `${shown.length - open.length} of ${plural(shown.length, 'step')} done.`
  byId('setup-steps').replaceChildren(
    ...shown.map((s) =>
      h(
        'li',
        { class: s.done ? 'card step done' : 'card step', 'data-step': s.step },
        h('h3', {}, s.done ? `Done: ${s.title}` : h('a', { href: s.href }, s.title)),
        !s.done && h('p', {}, s.about),
        !s.done &&
          h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              'aria-label': `Dismiss “${s.title}”`,
              onclick: async () => {
                const res = await api('POST', `/api/admin/setup/${s.step}/dismiss`)
                if (showOutcome(res, `Dismissed “${s.title}”.`)) showSetup(steps.map((x) => (x.step === s.step ? res.body.step : x)))
              },
            },
            'Dismiss',
          ),
      ),
    ),
  )
}
const roles = [me.person?.global_role, ...(me.person?.units ?? []).map((u) => `${u.role} of the ${u.slug}`)].filter(Boolean)
byId('me').textContent = `Signed in as ${me.person?.email ?? me.via}${roles.length ? ` (${roles.join(', ')})` : ''}.`

// Asked together and shown together, below the line above: nothing already on the screen moves as they arrive.
const owner = me.person?.global_role === 'owner'
const [setup, summary, settings, health] = await Promise.all([
  holds(me, 'people:manage') ? api('GET', '/api/admin/setup') : null,
  holds(me, 'leads:read') ? api('GET', '/api/admin/summary') : null,
  owner && holds(me, 'settings:write') ? api('GET', '/api/admin/settings') : null,
  // The owner hears of a failing backup here too: the public health check says whether it works.
  owner
    ? fetch('/healthz').then(
        (res) => res.json() as Promise<{ checks?: { backup?: { ok: boolean } } }>,
        () => null,
      )
    : null,
])
if (setup?.ok) showSetup(setup.body.steps)

let used: AnswerOf<Route<'GET /api/admin/summary'>>['your_use'] = []
if (summary?.ok) {
  const { leads, failed_mirror_copies, live_announcements, your_use } = summary.body
  used = your_use
  byId('glance').textContent = `${listWords([
    `${plural(leads.unclaimed, 'unclaimed lead')} (${leads.new_this_week} new this week)`,
    `${leads.claimed_by_me} claimed by you`,
    plural(failed_mirror_copies, 'failed spreadsheet copy', 'failed spreadsheet copies'),
    plural(live_announcements, 'live announcement'),
  ])}.`
}
/** A recommendation card: what to do, why, and where. */
const advise = (title: string, why: string, href: string, action: string) =>
  byId('advice').append(h('li', { class: 'card' }, h('h2', {}, title), h('p', {}, why), h('a', { class: 'cta', href }, action)))
if (health?.checks?.backup?.ok === false)
  advise(
    'The backups are failing',
    'The daily copy of the database did not work, or none was made for over a day: until it works again, a broken disk could lose the families’ data. The history says why.',
    '/admin/history/?kind=backups.',
    'See why',
  )
if (settings?.ok && settings.body.settings.find((x) => x.key === 'security.second_factor')?.value === 'optional')
  advise(
    'Ask admins for a second factor',
    'Owners and admins see every family. With the setting “Second factor”, they sign in with a code from their phone or a passkey as well as a password, so a guessed or leaked password is not enough.',
    '/admin/settings/#form-security-second_factor',
    'Choose who needs one',
  )
// The owner's getting-started list already asks for a second factor.
if (me.second_factor && !me.second_factor.enrolled && !me.second_factor.required && byId('setup').hidden)
  advise(
    'Add a second factor to your account',
    'An authenticator app or a passkey keeps your account safe even if someone learns your password.',
    '/admin/account/',
    'Add one',
  )

// The areas this credential may use, most-used first (the menu's order among equals, so a newcomer sees its first six).
const uses = (a: HTMLAnchorElement) => used.find((u) => u.href === a.getAttribute('href'))?.count ?? 0
const areas = [...document.querySelectorAll<HTMLAnchorElement>('.admin-nav a[data-about]')]
  .filter((a) => holds(me, a.dataset.needs))
  .sort((a, b) => uses(b) - uses(a))
byId('areas').append(
  ...areas
    .slice(0, CARDS)
    .map((a) =>
      h(
        'li',
        { class: 'card' },
        h('h2', {}, h('a', { href: a.getAttribute('href') ?? '' }, a.textContent ?? '')),
        h('p', {}, a.dataset.about ?? ''),
      ),
    ),
)
const more = areas.slice(CARDS)
if (more.length) {
  const links = more.map((a) => h('a', { href: a.getAttribute('href') ?? '' }, a.textContent ?? ''))
  byId('more-areas').append(h('p', {}, 'Also: ', ...links.flatMap((link, i) => (i ? [' · ', link] : [link]))))
  byId('more-areas').hidden = false
}
