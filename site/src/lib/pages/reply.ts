// The reply page of a mail's link (/reply/<token>): the event's card and the household's reply form, read and sent
// through the token (GET and PUT /api/reply/<token>); no sign-in. A closed or unknown link says so in words.
import { api, byId, detailOf, h } from '../admin.ts'
import { replyCard } from '../reply-card.ts'

const token = location.pathname.split('/').filter(Boolean)[1] ?? ''
const via = `/api/reply/${token}` as const
const res = await api('GET', via)
const who = byId('reply-for')
if (!res.ok) {
  who.textContent = detailOf(res)
  who.className = 'error'
} else {
  const { event, household } = res.body
  who.textContent = `For the household of ${household.parent_name}.`
  byId('reply').replaceChildren(
    replyCard(event, [household], { via, mail: true }),
    h('p', { class: 'muted' }, 'You can change your reply from this link until replies close.'),
  )
}
