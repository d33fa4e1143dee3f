// Who came to one event (?uid=…): the attendance part alone, for any event, meetings included.
import { KIND_WORDS, dayWords, plural } from '#server/words.ts'
import { byId } from '../admin.ts'
import { showAttendance } from '../attendance-taking.ts'
import { signedInOrOffline } from '../offline-roster.ts'

const { account } = await signedInOrOffline('/admin/calendar/')

const key = new URLSearchParams(location.search).get('uid')
const shown = key
  ? await showAttendance(key, account)
  : { ok: false as const, status: 404, detail: 'No event was chosen: open it from the calendar.' }
byId('attendance-loading').hidden = true
if (!shown.ok) {
  byId('attendance-missing').textContent = shown.detail
  byId('attendance-missing').hidden = false
} else {
  const { view } = shown
  document.querySelector('h1')!.textContent = `Who came: ${view.title}`
  document.title = document.title.replace('Who came', `Who came: ${view.title}`)
  const counts = [
    view.kind && KIND_WORDS[view.kind],
    view.nights && plural(view.nights, 'night'),
    view.service_hours && `${plural(view.service_hours, 'service hour')} each`,
    view.miles && `${plural(view.miles, 'mile')} each`,
  ].filter(Boolean)
  byId('attendance-when').textContent = [dayWords(view.date, { year: true }), ...counts].join(' · ')
}
