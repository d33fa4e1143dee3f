// The roster's search and filters, kept in the address: read from it, put back into it (a new history entry, or in
// place while typing), the den choices of the units shown, and a leader's own dens one tap away.
import type { AnswerOf } from '#server/routes.ts'
import { denWords, plural } from '#server/words.ts'
import { onSend, byId, field, formParams, h, type Route } from './admin.ts'

type Me = AnswerOf<Route<'GET /api/admin/whoami'>>
type Roster = AnswerOf<Route<'GET /api/admin/roster'>>

/** What the filters found, in words: households, scouts, dues unpaid, health forms missing. */
export function countsWords(c: Roster['counts']) {
  return [
    plural(c.households, 'household'),
    plural(c.scouts, 'scout'),
    `${c.dues_unpaid} dues unpaid`,
    `${plural(c.health_missing, 'health form')} missing or expiring`,
  ].join(' · ')
}

export function rosterFilters({ me, reload }: { me: Me; reload: () => void }) {
  const filters = byId<HTMLFormElement>('filters')
  const search = byId<HTMLInputElement>('q')
  const unitSelect = byId<HTMLSelectElement>('unit')
  const denSelect = byId<HTMLSelectElement>('den')
  const inactiveSelect = byId<HTMLSelectElement>('inactive-weeks')

  function fromAddress() {
    const params = new URLSearchParams(location.search)
    search.value = params.get('q') ?? ''
    unitSelect.value = params.get('unit') ?? ''
    ensureDenOption(params.get('den') ?? '')
    denSelect.value = params.get('den') ?? ''
    field(filters, 'dues').checked = params.get('dues') === 'unpaid'
    field(filters, 'health').checked = params.get('health') === 'missing'
    const weeks = params.get('inactive_weeks') ?? ''
    if (weeks && ![...inactiveSelect.options].some((o) => o.value === weeks))
      inactiveSelect.append(h('option', { value: weeks }, `${weeks} weeks`))
    inactiveSelect.value = weeks
  }

  /** The filters as query parameters, blank ones left out. */
  const chosen = () => formParams(filters)

  /** Puts the filters in the address (a new history entry, or in place while typing) and reads the roster again. */
  function apply(mode: 'push' | 'replace') {
    const query = chosen().toString()
    const address = `${location.pathname}${query ? `?${query}` : ''}`
    if (address !== location.pathname + location.search) history[mode === 'push' ? 'pushState' : 'replaceState'](null, '', address)
    reload()
  }

  function ensureDenOption(den: string) {
    if (den && ![...denSelect.options].some((o) => o.value === den)) denSelect.append(h('option', { value: den }, den))
  }

  /** The den choices: each den and patrol in use, by unit (only the chosen unit's when one is chosen). */
  function denChoices(body: Roster) {
    const keep = denSelect.value
    const unit = unitSelect.value
    const groups = body.units
      .filter((u) => !unit || u.slug === unit || String(u.id) === unit)
      .map((u) => {
        const dens = body.den_units.filter((d) => d.unit_id === u.id)
        return (
          dens.length > 0 &&
          h(
            'optgroup',
            { label: u.slug === 'troop' ? `${u.name}: patrols` : `${u.name}: dens` },
            ...dens.map((d) => h('option', { value: d.den }, denWords(d.den, d.unit_slug))),
          )
        )
      })
    denSelect.replaceChildren(
      h('option', { value: '' }, unit === 'troop' ? 'Every patrol' : unit === 'pack' ? 'Every den' : 'Every den and patrol'),
      ...groups.filter((g): g is HTMLElement => !!g),
    )
    ensureDenOption(keep)
    denSelect.value = keep
    byId('den-label').textContent = unit === 'troop' ? 'Patrol' : unit === 'pack' ? 'Den' : 'Den or patrol'
  }

  /** One tap to a leader's own den: the dens and patrols of the units they lead (the one their title names, if any). */
  function myDens(body: Roster) {
    const led = me.led_units.units
    const mine = body.den_units.filter((d) => led.some((u) => u.unit_id === d.unit_id))
    const titles = led.map((u) => (u.title ?? '').toLowerCase()).join(' ')
    const named = mine.filter((d) => new RegExp(`\\b${d.den.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(titles))
    const shown = named.length ? named : mine
    const group = byId('my-dens')
    group.hidden = !shown.length
    const kinds = new Set(shown.map((d) => d.unit_slug))
    byId('my-dens-label').textContent = kinds.has('troop') ? (kinds.has('pack') ? 'Your dens and patrols:' : 'Your patrols:') : 'Your dens:'
    group.replaceChildren(
      byId('my-dens-label'),
      ...shown.map((d) => {
        const on = denSelect.value === d.den
        return h(
          'button',
          {
            type: 'button',
            'aria-pressed': on ? 'true' : 'false',
            onclick: () => {
              ensureDenOption(d.den)
              denSelect.value = on ? '' : d.den
              if (!on && unitSelect.value && unitSelect.value !== d.unit_slug) unitSelect.value = ''
              apply('push')
            },
          },
          denWords(d.den, d.unit_slug),
        )
      }),
    )
  }

  /** The den choices and the leader's own dens, for the roster as loaded. */
  function show(body: Roster) {
    denChoices(body)
    myDens(body)
  }

  /** Reads the address, and reads the roster again whenever a filter changes or the address does (back, forward). */
  function wire() {
    onSend(filters, (event) => {
      event.preventDefault()
      apply('push')
    })
    let typing: ReturnType<typeof setTimeout> | undefined
    search.addEventListener('input', () => {
      clearTimeout(typing)
      typing = setTimeout(() => apply('replace'), 250)
    })
    for (const control of [unitSelect, denSelect, field(filters, 'dues'), field(filters, 'health'), inactiveSelect])
      control.addEventListener('change', () => apply('push'))
    addEventListener('popstate', () => {
      fromAddress()
      reload()
    })
    fromAddress()
  }

  return { chosen, apply, show, wire }
}
