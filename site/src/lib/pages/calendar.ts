// Calendar: every upcoming event; the site's own are editable (date and time pickers, all-day toggle, unit), others read-only.
import type { DELETE as DeleteEvent, PUT as ChangeEvent } from '#routes/api/admin/calendar/[uid]/index.ts'
import type { GET as ListEvents, POST as CreateEvent } from '#routes/api/admin/calendar/index.ts'
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { clockWords, dayWords, UNIT_WORDS } from '#server/words.ts'
import { answered, api, byId, h, onSubmit, report, signedInFor, tell } from '../admin.ts'

await signedInFor('calendar:write')

type CalendarEvent = AnswerOf<typeof ListEvents>['events'][number]
type EventFields = BodyOf<typeof CreateEvent>

const FIELDS = ['title', 'unit', 'date', 'end', 'location', 'badge', 'description'] as const
const TIMES = ['time', 'end_time'] as const

const form = byId<HTMLFormElement>('event')
const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement
const allDay = field('all_day')
const times = byId('times')
allDay.addEventListener('change', () => (times.hidden = allDay.checked))

function edit(e: CalendarEvent | null) {
  form.reset()
  field('uid').value = e?.uid ?? ''
  for (const name of [...FIELDS, ...TIMES]) field(name).value = e?.[name] ?? (name === 'unit' ? 'both' : '')
  allDay.checked = !e?.time
  times.hidden = allDay.checked
  byId('form-title').textContent = e ? `Edit “${e.title}”` : 'New event'
  byId('save').textContent = e ? 'Save changes' : 'Add event'
  byId('cancel').hidden = !e
  if (e) field('title').focus()
}

const whenOf = (e: CalendarEvent) =>
  `${dayWords(e.date, { year: true })}${e.end ? ` to ${dayWords(e.end, { year: true })}` : ''}` +
  `${e.time ? `, ${clockWords(e.time)}${e.end_time ? `–${clockWords(e.end_time)}` : ''}` : ', all day'} · ${UNIT_WORDS[e.unit]}`

async function load() {
  const body = answered(await api<typeof ListEvents>('GET', '/api/admin/calendar'))
  if (!body) return
  byId('unconfigured').hidden = body.configured
  byId('events').replaceChildren(
    ...body.events.map((e) =>
      h(
        'li',
        { class: 'card', 'data-event': e.uid },
        h('h3', {}, e.title),
        h('p', {}, whenOf(e)),
        e.location && h('p', {}, e.location),
        e.mine
          ? h(
              'div',
              { class: 'row' },
              h('button', { type: 'button', class: 'secondary', onclick: () => edit(e) }, 'Edit'),
              h('button', { type: 'button', class: 'danger', onclick: () => remove(e) }, 'Delete'),
            )
          : h('p', { class: 'muted' }, `Added in another calendar app${e.recurring ? ' (repeats)' : ''}: change it there.`),
      ),
    ),
  )
}

async function remove(e: CalendarEvent) {
  if (!confirm(`Delete “${e.title}”? It disappears from every subscribed calendar.`)) return
  report(await api<typeof DeleteEvent>('DELETE', `/api/admin/calendar/${encodeURIComponent(e.uid)}`), `Deleted “${e.title}”.`)
  await load()
}

/** The filled fields; an all-day event sends no times. */
function fields(): EventFields {
  const body: Partial<Record<keyof EventFields, string>> = {}
  for (const name of [...FIELDS, ...(allDay.checked ? [] : TIMES)]) {
    const value = field(name).value.trim()
    if (value) body[name] = value
  }
  return body as EventFields
}

onSubmit(
  form,
  () => {
    const uid = field('uid').value
    return uid
      ? api<typeof ChangeEvent>('PUT', `/api/admin/calendar/${encodeURIComponent(uid)}`, fields())
      : api<typeof CreateEvent>('POST', '/api/admin/calendar', fields())
  },
  async (saved) => {
    tell(`${field('uid').value ? 'Saved' : 'Added'} “${saved.title}”. The public calendar updates in a few seconds.`)
    edit(null)
    await load()
  },
  { reset: false },
)
byId('cancel').addEventListener('click', () => edit(null))
await load()
