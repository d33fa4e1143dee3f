// A scout's log, on the family page: this program year's camping nights, service hours, miles and meetings, all time's,
// and the events the scout came to (folded away, newest first); and the year's line of it in the roster's dialog.
import type { AnswerOf } from '#server/routes.ts'
import { dayWords, plural } from '#server/words.ts'
import { api, h, type Route } from './admin.ts'

export type ScoutLog = AnswerOf<Route<'GET /api/admin/family'>>['logs'][number]
type Totals = ScoutLog['totals']['all_time']
type Entry = ScoutLog['entries'][number]

const totalsWords = (t: Totals) =>
  [
    plural(t.nights, 'night') + ' camping',
    plural(t.service_hours, 'service hour'),
    plural(t.miles, 'mile'),
    plural(t.meetings, 'meeting'),
  ].join(' · ')

/** What one event counted for, in words ("2 nights, 3.5 miles"); nothing for a meeting that counted for none. */
function countsWords(e: Entry) {
  const parts = [
    e.nights ? plural(e.nights, 'night') : '',
    e.service_hours ? plural(e.service_hours, 'service hour') : '',
    e.miles ? plural(e.miles, 'mile') : '',
  ].filter(Boolean)
  return parts.length ? `: ${parts.join(', ')}` : ''
}

export function scoutLogSection(log: ScoutLog | undefined, name: string) {
  if (!log) return null
  const { program_year, all_time } = log.totals
  return h(
    'div',
    { class: 'scout-log', 'data-log': String(log.scout_id) },
    h('p', { 'data-totals': 'program_year' }, h('strong', {}, 'This program year: '), totalsWords(program_year)),
    h('p', { 'data-totals': 'all_time', class: 'muted' }, 'All time: ', totalsWords(all_time)),
    log.entries.length
      ? h(
          'details',
          {},
          h('summary', {}, `Events ${name} came to (${log.entries.length})`),
          h(
            'ul',
            { class: 'plain' },
            ...log.entries.map((e) => h('li', { 'data-entry': e.uid }, `${dayWords(e.date, { year: true })}, ${e.title}${countsWords(e)}`)),
          ),
        )
      : h('p', { class: 'muted' }, `No events marked yet: leaders mark who came after each one.`),
  )
}

/** This program year's totals of a scout, for the roster's household dialog: a line filled once the log arrives. */
export function logLine(scoutId: number) {
  const line = h('p', { class: 'muted', 'data-log-line': String(scoutId) }, 'This program year: …')
  void api('GET', `/api/admin/roster/scouts/${scoutId}/log`).then((res) => {
    line.textContent = res.ok ? `This program year: ${totalsWords(res.body.totals.program_year)}` : ''
  })
  return line
}
