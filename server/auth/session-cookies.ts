// The cookies a sign-in answers with: the HttpOnly session cookie, and a readable hint (a name and a start page,
// nothing secret) so the static public pages can show who is signed in without asking the server.
import { startPage } from './capabilities.ts'
import { SESSION_COOKIE, SESSION_IDLE_DAYS } from './sessions.ts'
import type { Executor } from '../db/database.ts'
import { loadPerson, personCapabilities } from './person.ts'
import { SIGNED_IN_COOKIE, type SignedInHint } from './signed-in-hint.ts'

const attributes = (publicBaseUrl: string, maxAge: number) =>
  `SameSite=Lax; Path=/; Max-Age=${maxAge}${publicBaseUrl.startsWith('https:') ? '; Secure' : ''}`

/** The session's cookies, and the page this person's pages start from. */
export async function sessionCookies(db: Executor, token: string, personId: number, publicBaseUrl: string) {
  const person = (await loadPerson(db, personId))!
  const start = startPage(personCapabilities(person))
  const hint = encodeURIComponent(JSON.stringify({ name: person.name ?? person.email.split('@')[0], start } satisfies SignedInHint))
  const maxAge = SESSION_IDLE_DAYS * 86_400
  return {
    start,
    cookies: [
      `${SESSION_COOKIE}=${token}; HttpOnly; ${attributes(publicBaseUrl, maxAge)}`,
      `${SIGNED_IN_COOKIE}=${hint}; ${attributes(publicBaseUrl, maxAge)}`,
    ],
  }
}

/** Cookies that end both. */
export const clearedSessionCookies = (publicBaseUrl: string) => [
  `${SESSION_COOKIE}=; HttpOnly; ${attributes(publicBaseUrl, 0)}`,
  `${SIGNED_IN_COOKIE}=; ${attributes(publicBaseUrl, 0)}`,
]
