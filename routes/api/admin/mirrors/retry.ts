// POST /api/admin/mirrors/retry: replays every owed copy to a target; a copy already ok is never sent again.
import { t } from '../../../../server/schemas.ts'
import { unprocessable } from '../../../../server/errors.ts'
import { record } from '../../../../server/history/record.ts'
import { copyToSpreadsheet } from '../../../../server/leads/mirrors.ts'
import { defineRoute } from '../../../../server/routes.ts'

export const POST = defineRoute({
  auth: 'leads:read',
  summary: 'Replay failed copies to a target (spreadsheet; notification is not implemented: 422)',
  body: t.Object(
    { target: t.Union([t.Literal('spreadsheet'), t.Literal('notification')], { error: 'must be spreadsheet or notification' }) },
    { additionalProperties: false },
  ),
  async handler({ db, body, caller }) {
    if (body.target === 'notification') throw unprocessable('target: the notification target is not implemented')
    const owed = await db
      .selectFrom('mirror_copies')
      .innerJoin('leads', 'leads.id', 'mirror_copies.lead_id')
      .selectAll('leads')
      .where('mirror_copies.target', '=', 'spreadsheet')
      .where('mirror_copies.status', '!=', 'ok')
      .orderBy('leads.id')
      .execute()
    let ok = 0
    for (const lead of owed) if (await copyToSpreadsheet(db, lead)) ok++
    await record(db, caller.actor, 'mirrors.retry', `Replayed ${owed.length} spreadsheet copies: ${ok} ok, ${owed.length - ok} failed`)
    return { target: body.target, attempted: owed.length, ok, failed: owed.length - ok }
  },
})
