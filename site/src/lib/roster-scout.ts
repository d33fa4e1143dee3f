// The roster's scout dialog: add a scout to a household or edit one (name, unit among those the leader keeps, den or
// patrol with the unit's own as choices, member ID); what the family set is shown, not edited here.
import type { AnswerOf } from '#server/routes.ts'
import { api, byId, field, h, leadsUnit, onSubmit, orNull, text, type Route } from './admin.ts'

type Me = AnswerOf<Route<'GET /api/admin/whoami'>>
type Roster = AnswerOf<Route<'GET /api/admin/roster'>>
type Household = AnswerOf<Route<'GET /api/admin/roster/households/{id}'>>
type Scout = Household['scouts'][number]

export interface ScoutDialogDeps {
  me: Me
  /** The roster as last loaded: its units and dens. */
  roster: () => Roster | null
  /** The unit the roster is filtered to (its slug, or blank): a new scout goes there by default. */
  unitFilter: () => string
  /** After a save, with words saying what was done. */
  saved: (words: string) => Promise<void>
}

export function scoutDialog({ me, roster, unitFilter, saved }: ScoutDialogDeps) {
  const dialog = byId<HTMLDialogElement>('scout-dialog')
  const form = byId<HTMLFormElement>('scout')
  const unitChoice = byId<HTMLSelectElement>('scout-unit')
  let scoutOf: { household: Household; scout: Scout | null } | null = null

  /** The units a caller keeps scouts in: those they lead (all for admins and owners); the server refuses others (403). */
  const keptUnits = () => (roster()?.units ?? []).filter((u) => leadsUnit(me, u.id))

  function denLabel() {
    const unit = roster()?.units.find((u) => String(u.id) === unitChoice.value)
    byId('scout-den-label').textContent = unit?.slug === 'troop' ? 'Patrol' : 'Den'
    const dens =
      roster()
        ?.den_units.filter((d) => d.unit_id === unit?.id)
        .map((d) => d.den) ?? []
    byId('dens').replaceChildren(...dens.map((d) => h('option', { value: d })))
  }

  function open(household: Household, scout: Scout | null) {
    scoutOf = { household, scout }
    form.reset()
    byId('scout-error').hidden = true
    const mine = keptUnits()
    unitChoice.replaceChildren(...mine.map((u) => h('option', { value: String(u.id) }, u.name)))
    const preferred = scout?.unit_id ?? mine.find((u) => u.slug === unitFilter())?.id ?? household.scouts[0]?.unit_id
    if (preferred) unitChoice.value = String(preferred)
    denLabel()
    field(form, 'first_name').value = scout?.first_name ?? ''
    field(form, 'last_name').value = scout?.last_name ?? ''
    field(form, 'den').value = scout?.den ?? ''
    field(form, 'org_member_id').value = scout?.org_member_id ?? ''
    const family = byId('scout-family')
    family.hidden = !scout
    if (scout)
      family.textContent = `Set by the family: ${scout.preferred_name ? `goes by ${scout.preferred_name}` : 'no other name'}; ${scout.photo_consent ? 'photos OK' : 'no photos'}.`
    byId('scout-title').textContent = scout ? `Edit ${scout.first_name}` : `Add a scout to ${household.parent_name}'s household`
    dialog.showModal()
  }

  unitChoice.addEventListener('change', denLabel)

  onSubmit(
    form,
    (data) => {
      const fields = {
        first_name: text(data, 'first_name'),
        last_name: orNull(data, 'last_name'),
        unit_id: Number(data.get('unit_id')),
        den: orNull(data, 'den'),
        org_member_id: orNull(data, 'org_member_id'),
      }
      const { household, scout } = scoutOf!
      return scout
        ? api('PATCH', `/api/admin/roster/scouts/${scout.id}`, fields)
        : api('POST', `/api/admin/roster/households/${household.id}/scouts`, fields)
    },
    async (done) => {
      dialog.close()
      await saved(`${scoutOf?.scout ? 'Saved' : 'Added'} ${done.first_name}.`)
    },
  )

  return { open }
}
