// GET/POST /api/admin/keys: the caller's API keys, and minting a new one (secret shown once).
import { t } from '../../../../server/schemas.ts'
import { CAPABILITIES, type Capability, UNSCOPABLE } from '../../../../server/auth/capabilities.ts'
import { newKeySecret, sha256 } from '../../../../server/auth/tokens.ts'
import { forbidden, unprocessable } from '../../../../server/errors.ts'
import { record } from '../../../../server/history/record.ts'
import { grantableScopes, keyView } from '../../../../server/keys/queries.ts'
import { defineRoute } from '../../../../server/routes.ts'

export const GET = defineRoute({
  auth: 'apikeys:own',
  summary: "The caller's keys, newest first, with state; and the scopes a new key may carry",
  async handler({ db, caller }) {
    const rows = await db.selectFrom('api_keys').selectAll().where('person_id', '=', caller.person!.id).orderBy('id', 'desc').execute()
    return { keys: rows.map(keyView), grantable_scopes: grantableScopes(caller.capabilities) }
  },
})

export const POST = defineRoute({
  auth: 'apikeys:own',
  summary: 'Mint a key; the secret is in this answer only',
  body: t.Object(
    {
      label: t.String({ minLength: 1, maxLength: 100 }),
      scopes: t.Array(t.Union(CAPABILITIES.map((c) => t.Literal(c))), {
        minItems: 1,
        uniqueItems: true,
        error: 'must be a non-empty list of capability names',
      }),
      expires_days: t.Optional(t.Integer({ minimum: 1, maximum: 365, error: 'must be a whole number of days from 1 to 365' })),
    },
    { additionalProperties: false },
  ),
  async handler({ db, caller, body, set }) {
    const scopes = body.scopes as Capability[]
    const unscopable = scopes.filter((s) => UNSCOPABLE.includes(s))
    if (unscopable.length) throw unprocessable(`scopes: ${unscopable.join(', ')} cannot be put on a key`)
    const missing = scopes.filter((s) => !caller.capabilities.has(s))
    if (missing.length) throw forbidden(`scopes: you do not hold ${missing.join(', ')}`)
    const secret = newKeySecret()
    const now = new Date()
    const row = await db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('api_keys')
        .values({
          person_id: caller.person!.id,
          label: body.label,
          scopes: JSON.stringify(scopes),
          token_hash: sha256(secret),
          hint: secret.slice(5, 9),
          created_at: now.toISOString(),
          expires_at: body.expires_days ? new Date(now.getTime() + body.expires_days * 86_400_000).toISOString() : null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
      await record(trx, caller.actor, 'keys.mint', `Minted key "${body.label}" #${inserted.id} with ${scopes.join(', ')}`)
      return inserted
    })
    set.status = 201
    return { ...keyView(row), key: secret }
  },
})
