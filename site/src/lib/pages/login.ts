// Sign-in page: after signing in, on to `next` when it is a page of this site, else where the person's pages start.
import type { POST as SignIn } from '#routes/login.ts'
import { sameSitePath } from '#server/auth/next-path.ts'
import type { AnswerOf } from '#server/routes.ts'
import { submitJson } from '../forms.ts'

const query = new URLSearchParams(location.search)
;(document.getElementById('signed-out') as HTMLElement).hidden = !query.has('signed-out')
submitJson<AnswerOf<typeof SignIn>>('login', '/login', (signedIn) => (location.href = sameSitePath(query.get('next'), signedIn.start)))
