// The roster's "Invite a parent" dialog: an invite for the household's address, as a member of the units of its scouts
// the inviter may grant, linked to the household when accepted; mailed when asked.
import type { AnswerOf } from '#server/routes.ts'
import { api, byId, field, leadsUnit, onSubmit, text, type Route } from './admin.ts'

type Me = AnswerOf<Route<'GET /api/admin/whoami'>>
type Household = AnswerOf<Route<'GET /api/admin/roster/households/{id}'>>
type Invited = AnswerOf<Route<'POST /api/admin/people/invite'>>

export interface InviteDialogDeps {
  me: Me
  /** The household the roster's dialog has open, if any. */
  household: () => Household | null
  /** After the invite is made, with the answer (its link is shown once). */
  invited: (invited: Invited) => Promise<void>
}

export function inviteDialog({ me, household, invited }: InviteDialogDeps) {
  const dialog = byId<HTMLDialogElement>('invite-dialog')
  const form = byId<HTMLFormElement>('invite')

  function open() {
    const hh = household()
    if (!hh) return
    form.reset()
    byId('invite-error').hidden = true
    const linked = new Set(hh.people.map((p) => p.email))
    if (hh.email && !linked.has(hh.email)) field(form, 'email').value = hh.email
    byId('invite-about').textContent =
      `They get a link to make their account, which then sees ${hh.parent_name}'s household on its family page. It works once, for 14 days.`
    dialog.showModal()
  }

  /** The roles a parent's invite grants: member of each unit of the household's scouts that the inviter may grant. */
  function parentUnits(hh: Household) {
    const units = [...new Set(hh.scouts.map((sc) => sc.unit_id))]
    return units.filter((id) => leadsUnit(me, id)).map((unit_id) => ({ unit_id, role: 'member' as const }))
  }

  onSubmit(
    form,
    (data) =>
      api('POST', '/api/admin/people/invite', {
        email: text(data, 'email'),
        units: parentUnits(household()!),
        household_id: household()!.id,
        send_email: data.get('send_email') === 'on',
      }),
    async (answer) => {
      dialog.close()
      await invited(answer)
    },
  )

  return { open }
}
