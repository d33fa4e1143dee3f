// The token of a reply link (reply-link.ts answers through it): `<household id>.<event uid, base64url>.<HMAC-SHA256
// of both under the server's reply_link secret>`. Mail makes these; nothing is stored per mail.
import type { Executor } from '../db/database.ts'
import { notFound } from '../errors.ts'
import { sameSecret } from '../auth/tokens.ts'

const secrets = new WeakMap<object, Promise<string>>()

/** The reply_link secret (made by its migration), read once per database. */
function secretOf(db: Executor): Promise<string> {
  let secret = secrets.get(db)
  if (!secret) {
    secret = db
      .selectFrom('server_secrets')
      .select('secret')
      .where('name', '=', 'reply_link')
      .executeTakeFirstOrThrow()
      .then((r) => r.secret)
    secrets.set(db, secret)
  }
  return secret
}

const mac = (secret: string, household: number, uid: string) =>
  new Bun.CryptoHasher('sha256', secret).update(`${household}\n${uid}`).digest('base64url')

/** The token of `household`'s link to event `uid`: the same each time it is asked for. */
export async function replyToken(db: Executor, household: number, uid: string): Promise<string> {
  return `${household}.${Buffer.from(uid).toString('base64url')}.${mac(await secretOf(db), household, uid)}`
}

/** The address a mail gives `household` to answer event `uid`. */
export const replyUrl = async (db: Executor, baseUrl: string, household: number, uid: string) =>
  `${baseUrl}/reply/${await replyToken(db, household, uid)}`

export const DEAD =
  'This reply link does not work: it may be cut short, or the household is no longer on the roster. Ask a leader for a new one.'

/** The household id and event uid a well-signed token names; 404 for anything else. */
export async function readToken(db: Executor, token: string) {
  const [id, encoded, signature, ...rest] = token.split('.')
  if (rest.length || !/^[1-9][0-9]{0,9}$/.test(id ?? '') || !encoded || !signature) throw notFound(DEAD)
  const household = Number(id)
  const uid = Buffer.from(encoded, 'base64url').toString()
  if (!sameSecret(signature, mac(await secretOf(db), household, uid))) throw notFound(DEAD)
  return { household, uid }
}
