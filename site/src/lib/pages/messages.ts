// Messages: the compose form (an audience picker built from the roster's dens and the calendar's events, a live count
// of who it reaches, a confirm step naming it) and the messages sent, each opening onto its deliveries.
import type { AnswerOf, BodyOf } from '#server/routes.ts'
import { dayWords, plural } from '#server/words.ts'
import { onSend, api, byId, detailOf, h, leadsUnit, signedInFor, when, type Route, showStatus, showError } from '../admin.ts'
import { clearFieldErrors, showRefusal } from '../field-errors.ts'

type Audience = BodyOf<Route<'POST /api/admin/messages'>>['audience']
type Unit = NonNullable<Audience['units']>[number]
type Reply = NonNullable<NonNullable<Audience['event']>['replies']>[number]
type Preview = AnswerOf<Route<'POST /api/admin/messages/preview'>>
type Message = AnswerOf<Route<'GET /api/admin/messages'>>['messages'][number]
type Delivery = AnswerOf<Route<'GET /api/admin/messages/{id}'>>['deliveries'][number]

const PAGE = 50

const me = await signedInFor('/admin/messages/')
// A leader writes to the units they lead; admins and owners to every unit (the server holds the same rule).
const reaches = (slug: string) => leadsUnit(me, slug)

/** Who a message reaches, in one line: "57 addresses · 2 households have no address". */
function countWords(p: Preview): string {
  const noAddress = p.skipped.filter((s) => s.reason === 'no address').length
  const stopped = p.skipped.filter((s) => s.reason === 'unsubscribed').length
  return [
    plural(p.recipients, 'address', 'addresses'),
    noAddress && `${plural(noAddress, 'household')} ${noAddress === 1 ? 'has' : 'have'} no address`,
    stopped && `${plural(stopped, 'address', 'addresses')} stopped the site's mail`,
  ]
    .filter(Boolean)
    .join(' · ')
}

// ---- Compose (only when mail is set up: the page has no form otherwise) ----
async function compose(form: HTMLFormElement) {
  const problem = byId('compose-error')
  const count = byId('count')
  const units = byId('audience-units')
  const eventChoice = byId<HTMLSelectElement>('event')
  const replies = byId<HTMLFieldSetElement>('replies')
  const urgent = form.elements.namedItem('urgent') as HTMLInputElement

  // The calendar is read from its store, which may be slow: the units and dens show without waiting for it.
  const calendar = api('GET', '/api/admin/calendar')
  const roster = await api('GET', '/api/admin/roster')
  const unitRows = roster.ok
    ? roster.body.units.filter((u) => reaches(u.slug))
    : me.led_units.units.map(({ slug }, i) => ({ id: i, slug, name: slug === 'pack' ? 'Pack' : 'Troop' }))
  // Dens and patrols as the roster spells them, each once whatever its case (the server matches them so).
  const densOf = (slug: string) => {
    const seen = new Map<string, string>()
    for (const household of roster.ok ? roster.body.households : [])
      if (household.active)
        for (const scout of household.scouts)
          if (scout.unit_slug === slug && scout.den?.trim() && !seen.has(scout.den.trim().toLowerCase()))
            seen.set(scout.den.trim().toLowerCase(), scout.den.trim())
    return [...seen.values()].sort((a, b) => a.localeCompare(b))
  }
  const box = (label: string, data: Record<string, string>) =>
    h('label', {}, h('input', { type: 'checkbox', ...Object.fromEntries(Object.entries(data).map(([k, v]) => [`data-${k}`, v])) }), label)
  units.replaceChildren(
    ...unitRows.map((u) =>
      h(
        'fieldset',
        { class: 'checks', 'data-unit': u.slug },
        h('legend', {}, u.name),
        box(`All ${u.slug} families`, { kind: 'unit', unit: u.slug }),
        ...densOf(u.slug).map((den) => box(`${den} ${u.slug === 'pack' ? 'den' : 'patrol'}`, { kind: 'den', unit: u.slug, den })),
        box(`${u.slug === 'pack' ? 'Pack' : 'Troop'} leaders`, { kind: 'leaders', unit: u.slug }),
      ),
    ),
  )
  if (!unitRows.length) units.replaceChildren(h('p', {}, 'You lead no unit yet, so there is nobody to write to.'))
  if (!roster.ok) units.append(h('p', { class: 'error' }, `Dens and patrols could not be read: ${detailOf(roster)}`))

  // One choice per event (a repeating one is listed once, at its next day), only those of units you reach.
  const events = new Map<string, { title: string; date: string; rsvp: boolean }>()
  void calendar.then((answer) => {
    for (const e of answer.ok ? answer.body.events : [])
      if ((e.unit === 'both' || reaches(e.unit)) && !events.has(e.uid)) events.set(e.uid, { title: e.title, date: e.date, rsvp: !!e.rsvp })
    for (const [uid, e] of events)
      eventChoice.append(h('option', { value: uid }, `${dayWords(e.date)}: ${e.title}${e.rsvp ? ' (asks for replies)' : ''}`))
    byId('event-label').hidden = !events.size
  })
  const showReplies = () => {
    replies.hidden = !events.get(eventChoice.value)?.rsvp
    if (replies.hidden) for (const input of replies.querySelectorAll('input')) input.checked = false
  }
  eventChoice.addEventListener('change', showReplies)

  const ticked = (kind: string) => [...units.querySelectorAll<HTMLInputElement>(`input[data-kind="${kind}"]:checked`)].map((i) => i.dataset)
  function audience(): Audience {
    const chosen: Audience = {}
    const whole = ticked('unit').map((d) => d.unit as Unit)
    const dens = ticked('den').map((d) => ({ unit: d.unit as Unit, name: d.den! }))
    const leaders = ticked('leaders').map((d) => d.unit as Unit)
    if (whole.length) chosen.units = whole
    if (dens.length) chosen.dens = dens
    if (leaders.length) chosen.leaders = leaders
    if (eventChoice.value) {
      const answers = [...replies.querySelectorAll<HTMLInputElement>('input:checked')].map((i) => i.value as Reply)
      chosen.event = { uid: eventChoice.value, ...(answers.length ? { replies: answers } : {}) }
    }
    return chosen
  }
  const nobody = (a: Audience) => !Object.keys(a).length
  const preview = (a: Audience) => api('POST', '/api/admin/messages/preview', { audience: a, urgent: urgent.checked })

  // The live count: asked a moment after the last change; an answer to an older question is dropped.
  let timer: ReturnType<typeof setTimeout> | undefined
  let asked = 0
  function recount() {
    clearTimeout(timer)
    const question = ++asked
    const a = audience()
    byId('count-who').hidden = true
    count.className = 'muted'
    if (nobody(a)) return void (count.textContent = 'Choose who gets it.')
    timer = setTimeout(async () => {
      const res = await preview(a)
      if (question !== asked) return
      if (!res.ok) return showError(res, count)
      count.textContent = `${countWords(res.body)}: ${res.body.audience_words}.`
      count.className = 'notice'
      byId('count-emails').replaceChildren(...res.body.emails.map((email) => h('li', {}, email)))
      byId('count-who').hidden = !res.body.emails.length
    }, 350)
  }
  form.addEventListener('change', (e) => {
    if ((e.target as HTMLElement).closest('#audience') || e.target === urgent) recount()
  })

  // Send: a fresh count names exactly who it goes to, then the confirm dialog sends it.
  const dialog = byId<HTMLDialogElement>('confirm-dialog')
  const confirmSend = byId<HTMLButtonElement>('confirm-send')
  let pending: BodyOf<Route<'POST /api/admin/messages'>> | null = null
  dialog.querySelector('[data-close]')!.addEventListener('click', () => dialog.close())
  onSend(form, async (e) => {
    e.preventDefault()
    clearFieldErrors(form)
    problem.hidden = true
    const data = new FormData(form)
    const a = audience()
    if (nobody(a)) return showError('Choose who gets it: a unit, a den or patrol, leaders or an event.', problem)
    const res = await preview(a)
    if (!res.ok) return showError(res, problem)
    if (!res.body.recipients)
      return showError(`Nobody would get it (${countWords(res.body)}). Choose more families, or send it as urgent.`, problem)
    pending = { subject: String(data.get('subject')).trim(), body: String(data.get('body')), audience: a, urgent: urgent.checked }
    byId('confirm-text').textContent =
      `“${pending.subject}” goes to ${countWords(res.body)}: ${res.body.audience_words}.` +
      (pending.urgent ? ' It is urgent, so it reaches families who stopped the site’s mail too.' : '')
    confirmSend.textContent = `Send to ${plural(res.body.recipients, 'address', 'addresses')}`
    byId('confirm-error').hidden = true
    dialog.showModal()
  })
  onSend(byId<HTMLFormElement>('confirm'), async (e) => {
    e.preventDefault()
    if (!pending) return
    confirmSend.disabled = true
    const res = await api('POST', '/api/admin/messages', pending)
    confirmSend.disabled = false
    if (!res.ok) {
      dialog.close()
      showRefusal(form, typeof res.body?.detail === 'string' ? res.body : detailOf(res), (text) => showError(text, problem))
      return
    }
    dialog.close()
    pending = null
    form.reset()
    showReplies()
    recount()
    showStatus(`Sent “${res.body.subject}” to ${plural(res.body.recipients, 'address', 'addresses')}. Its deliveries are below.`)
    await list.refresh(res.body.id)
  })

  const digest = await api('GET', '/api/admin/messages/digest')
  if (digest.ok) {
    const { next_at, mails, households } = digest.body
    byId('digest').textContent = next_at
      ? `The weekly digest of coming events goes next on ${when(next_at)}: as of now ${plural(mails, 'mail')} to ${plural(households.length, 'household')} with something coming.`
      : 'The weekly digest is off (the setting mail.digest_day).'
    byId('digest').hidden = false
  }
}

// ---- The messages sent: newest first, each opening onto its body and deliveries ----
const DELIVERY_BADGE: Record<Delivery['state'], string> = {
  sent: 'badge active',
  failed: 'badge revoked',
  queued: 'badge',
  skipped: 'badge',
}

interface Card {
  item: HTMLElement
  counts: HTMLElement
  details: HTMLDetailsElement
  deliveries: HTMLElement
}

const list = new (class SentList {
  readonly root = byId('messages')
  readonly cards = new Map<number, Card>()
  readonly more = byId<HTMLButtonElement>('more')
  oldest: number | null = null
  /** How many more times the list looks again while mail is still waiting to go. */
  lookAgain = 40
  timer: ReturnType<typeof setTimeout> | undefined

  constructor() {
    this.more.addEventListener('click', () => this.older())
  }

  countsWords(m: Message) {
    const c = m.deliveries_by_state
    return `${c.sent} sent · ${c.queued} queued · ${c.failed} failed · ${c.skipped} skipped`
  }

  card(m: Message): Card {
    const counts = h('p', { 'data-counts': '' }, this.countsWords(m))
    const deliveries = h('ul', { class: 'plain stack', 'data-deliveries': '' })
    const details = h(
      'details',
      {},
      h('summary', {}, 'Message and deliveries'),
      h('div', { class: 'message' }, m.body),
      h('h4', {}, 'Deliveries'),
      deliveries,
    ) as HTMLDetailsElement
    const item = h(
      'li',
      { class: 'card', 'data-message': String(m.id) },
      h('h3', {}, m.subject, m.urgent ? ' ' : '', m.urgent && h('span', { class: 'badge revoked' }, 'urgent')),
      h('p', { class: 'muted' }, `${when(m.created_at)} · by ${m.sent_by}`),
      h('p', {}, `To ${m.audience_words}`),
      counts,
      details,
    )
    const card = { item, counts, details, deliveries }
    details.addEventListener('toggle', () => {
      const url = details.open ? `?id=${m.id}` : location.pathname
      if (details.open || new URLSearchParams(location.search).get('id') === String(m.id)) history.replaceState(null, '', url)
      if (details.open) void this.deliveries(m.id, card)
    })
    return card
  }

  async deliveries(id: number, card: Card) {
    const res = await api('GET', `/api/admin/messages/${id}`)
    if (!res.ok) return card.deliveries.replaceChildren(h('li', { class: 'error' }, detailOf(res)))
    card.counts.textContent = this.countsWords(res.body)
    card.deliveries.replaceChildren(
      ...res.body.deliveries.map((d) =>
        h(
          'li',
          { 'data-delivery': d.email ?? d.who, 'data-state': d.state, 'data-channel': d.channel },
          h('span', { class: DELIVERY_BADGE[d.state] }, d.state),
          ` ${d.who}`,
          d.reason ? `: ${d.reason}` : '',
          d.at ? ` · ${when(d.at)}` : '',
        ),
      ),
    )
    if (!res.body.deliveries.length) card.deliveries.append(h('li', {}, 'No deliveries.'))
  }

  /** Shows messages newest first, updating the cards already shown (an open one stays open and reloads its deliveries). */
  show(messages: Message[]) {
    let added = false
    for (const m of messages) {
      const known = this.cards.get(m.id)
      if (!known) {
        this.cards.set(m.id, this.card(m))
        added = true
      } else {
        known.counts.textContent = this.countsWords(m)
        if (known.details.open) void this.deliveries(m.id, known)
      }
    }
    if (added || !this.cards.size)
      this.root.replaceChildren(
        ...[...this.cards.entries()].sort(([a], [b]) => b - a).map(([, card]) => card.item),
        ...(this.cards.size ? [] : [h('li', {}, 'No messages sent yet.')]),
      )
  }

  /** Reads the newest page again; `open` (a message just sent, or ?id=) is opened and brought into view. */
  async refresh(open?: number) {
    clearTimeout(this.timer)
    const res = await api('GET', `/api/admin/messages?limit=${PAGE}`)
    if (!res.ok) return showError(res)
    this.show(res.body.messages)
    if (this.oldest === null) {
      this.oldest = res.body.messages.at(-1)?.id ?? null
      this.more.hidden = res.body.messages.length < PAGE
    }
    if (open !== undefined) {
      this.lookAgain = 40
      await this.open(open)
    }
    // While mail is waiting to go, look again now and then, so "queued" turns to "sent" without a reload.
    clearTimeout(this.timer) // another refresh may have finished meanwhile: one timer at a time
    if (res.body.messages.some((m) => m.deliveries_by_state.queued > 0) && this.lookAgain-- > 0)
      this.timer = setTimeout(() => this.refresh(), 3000)
  }

  async open(id: number) {
    let card = this.cards.get(id)
    if (!card) {
      // An older message than the first page (a link to ?id=N): shown in its place among them.
      const res = await api('GET', `/api/admin/messages/${id}`)
      if (!res.ok) return showError(res)
      this.show([res.body])
      card = this.cards.get(id)!
    }
    if (card.details.open) await this.deliveries(id, card)
    else card.details.open = true // its toggle loads the deliveries
    card.item.scrollIntoView({ block: 'start' })
  }

  async older() {
    if (this.oldest === null) return
    const res = await api('GET', `/api/admin/messages?limit=${PAGE}&before_id=${this.oldest}`)
    if (!res.ok) return showError(res)
    this.show(res.body.messages)
    this.oldest = res.body.messages.at(-1)?.id ?? this.oldest
    this.more.hidden = res.body.messages.length < PAGE
  }
})()

const wanted = Number(new URLSearchParams(location.search).get('id'))
const listed = list.refresh(Number.isInteger(wanted) && wanted > 0 ? wanted : undefined)
const form = document.getElementById('compose') as HTMLFormElement | null
if (form) await compose(form)
await listed
