// Announcements: every one with its state and unit, a create form with a live character count (the cap is a
// setting) that names the live ones when the live cap is reached, and taking one down.
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { utcToZoned, zonedToUtc } from '#server/calendar/zone.ts'
import { UNIT_WORDS } from '#server/words.ts'
import {
  api,
  ownUnit,
  byId,
  detailOf,
  h,
  onSubmit,
  signedInFor,
  SITE_ZONE,
  when,
  type Route,
  showStatus,
  showOutcomeRedrawn,
  bodyOrShowError,
} from '../admin.ts'

type Announcement = AnswerOf<Route<'GET /api/admin/announcements'>>['announcements'][number]

const LABEL: Record<Announcement['state'], string> = {
  live: 'showing now',
  scheduled: 'scheduled',
  expired: 'ended',
  revoked: 'taken down',
  over_cap: 'waiting: too many showing',
}
// datetime-local has no zone: what is typed is read in the site's time zone, like every time on the admin pages.
const iso = (local: FormDataEntryValue | null) =>
  local ? new Date(zonedToUtc(String(local).slice(0, 10), String(local).slice(11, 16), SITE_ZONE)).toISOString() : undefined
const WEEK = 7 * 86_400_000
/** A week from now in the site's time zone, as datetime-local writes it: the end an announcement gets unless changed. */
function weekAhead() {
  const { date, time } = utcToZoned(Date.now() + WEEK, SITE_ZONE)
  return `${date}T${time}`
}

const me = await signedInFor('/admin/announcements/')
const form = byId<HTMLFormElement>('create')
const message = form.elements.namedItem('message') as HTMLTextAreaElement
const count = byId('message-count')
let maxChars = 280

const unitChoice = form.elements.namedItem('unit') as HTMLSelectElement
const defaultUnit = ownUnit(me)
unitChoice.value = defaultUnit
const endsAt = form.elements.namedItem('ends_at') as HTMLInputElement
endsAt.value ||= weekAhead() // unless typed while the page was loading

function countChars() {
  const used = [...message.value.trim()].length
  count.textContent = `${used} of ${maxChars} characters${used > maxChars ? `: ${used - maxChars} too many` : ''}`
  count.className = used > maxChars ? 'error' : 'muted'
}
message.addEventListener('input', countChars)
countChars()

async function load() {
  const body = bodyOrShowError(await api('GET', '/api/admin/announcements'))
  if (!body) return
  maxChars = body.max_chars
  countChars()
  const list = byId('announcements')
  list.replaceChildren(
    ...body.announcements.map((a) =>
      h(
        'li',
        { class: 'card', 'data-announcement': String(a.id) },
        h(
          'p',
          {},
          h('span', { class: `badge ${a.state === 'live' ? 'active' : a.state}` }, LABEL[a.state]),
          ` for ${UNIT_WORDS[a.unit].toLowerCase()}`,
        ),
        h('p', {}, a.message),
        h('p', { class: 'muted' }, `${when(a.starts_at)} to ${when(a.ends_at)} · by ${a.created_by}`),
        a.state !== 'revoked' &&
          a.state !== 'expired' &&
          h('button', { type: 'button', class: 'danger', onclick: () => revoke(a) }, 'Take down'),
      ),
    ),
  )
  if (!body.announcements.length) list.append(h('li', {}, 'No announcements yet.'))
}

async function revoke(a: Announcement) {
  if (!confirm('Take this announcement down now?')) return
  await showOutcomeRedrawn(await api('DELETE', `/api/admin/announcements/${a.id}`), 'Taken down; the site updates in a few seconds.', load)
}

onSubmit(
  form,
  (data) =>
    api('POST', '/api/admin/announcements', {
      message: String(data.get('message')),
      ends_at: iso(data.get('ends_at')) ?? '',
      starts_at: iso(data.get('starts_at')),
      unit: String(data.get('unit')) as BodyOf<Route<'POST /api/admin/announcements'>>['unit'],
    }),
  async (created) => {
    unitChoice.value = defaultUnit
    endsAt.value = weekAhead()
    countChars()
    await load()
    showStatus(`Published (${LABEL[created.state]}). The site updates in a few seconds.`)
  },
  {
    refused: (res) => {
      const live = res.body.live as { message: string }[] | undefined
      return live ? `${detailOf(res)} Showing now: ${live.map((a) => `“${a.message}”`).join(', ')}.` : res.body
    },
  },
)
await load()
