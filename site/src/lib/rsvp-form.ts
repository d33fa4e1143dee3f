// One household's reply to one event (yes, maybe or no, with how many adults and scouts), for the family page
// and the public calendar when signed in. Saving sends PUT /api/admin/calendar/{uid}/rsvps.
import type { GET as Family } from '#routes/api/admin/family/index.ts'
import type { PUT as Answer } from '#routes/api/admin/calendar/[uid]/rsvps/index.ts'
import type { AnswerOf } from '#server/routes.ts'
import { api, detailOf, h, say } from './admin.ts'

type AskingEvent = AnswerOf<typeof Family>['events'][number]
type Reply = AnswerOf<typeof Answer>

const ANSWERS = [
  ['yes', 'Coming'],
  ['maybe', 'Maybe'],
  ['no', 'Not coming'],
] as const

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
export const replyWords = (r: Pick<Reply, 'answer' | 'adults' | 'scouts'>) =>
  r.answer === 'no'
    ? 'not coming'
    : `${r.answer === 'yes' ? 'coming' : 'maybe'}, ${plural(r.adults, 'adult')} and ${plural(r.scouts, 'scout')}`

let forms = 0

/** The reply form of one household (with its current reply), or its reply alone once replies are closed. */
export function rsvpForm(event: AskingEvent, household: { id: number; parent_name: string }, several: boolean): HTMLElement {
  const reply = event.replies.find((r) => r.household_id === household.id)
  const who = several ? ` (${household.parent_name})` : ''
  if (!event.open)
    return h('p', { class: 'muted' }, `Replies are closed${who}. ${reply ? `Your reply: ${replyWords(reply)}.` : 'You did not reply.'}`)
  const n = ++forms
  const status = h('p', { role: 'status', hidden: true })
  const count = (name: 'adults' | 'scouts', label: string) =>
    h(
      'label',
      {},
      label,
      h('input', { type: 'number', name, min: '0', max: '20', inputmode: 'numeric', value: String(reply?.[name] ?? 1) }),
    )
  const form = h(
    'form',
    { class: 'stack rsvp', 'data-rsvp': event.uid },
    h(
      'fieldset',
      { class: 'group' },
      h('legend', {}, `Are you coming?${who}`),
      h(
        'div',
        { class: 'row' },
        ...ANSWERS.map(([value, label]) =>
          h(
            'label',
            { class: 'inline-check' },
            h('input', { type: 'radio', name: `answer-${n}`, value, required: true, checked: reply?.answer === value }),
            label,
          ),
        ),
      ),
    ),
    h('div', { class: 'row' }, count('adults', 'Adults'), count('scouts', 'Scouts and siblings')),
    h('label', {}, 'Note for the leaders (optional)', h('input', { name: 'note', maxlength: '300', value: reply?.note ?? '' })),
    h('button', { type: 'submit' }, reply ? 'Change reply' : 'Send reply'),
    status,
  ) as HTMLFormElement
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement
  form.addEventListener('submit', async (e) => {
    e.preventDefault()
    const answer = (form.querySelector(`input[name="answer-${n}"]:checked`) as HTMLInputElement | null)?.value as
      Reply['answer'] | undefined
    if (!answer) return say(status, 'Choose coming, maybe or not coming.', 'error')
    const body = {
      answer,
      adults: answer === 'no' ? 0 : Number(field('adults').value || 0),
      scouts: answer === 'no' ? 0 : Number(field('scouts').value || 0),
      ...(field('note').value.trim() ? { note: field('note').value.trim() } : {}),
      ...(several ? { household_id: household.id } : {}),
    }
    const res = await api<typeof Answer>('PUT', `/api/admin/calendar/${encodeURIComponent(event.uid)}/rsvps`, body)
    if (!res.ok) return say(status, detailOf(res), 'error')
    say(status, `Thank you: ${replyWords(res.body)}. You can change it until the event starts.`)
    ;(form.querySelector('button[type="submit"]') as HTMLButtonElement).textContent = 'Change reply'
  })
  return form
}
