// The code page of a sign-in that began without JavaScript: with it, the code is sent as JSON and a refusal shows
// beside the field; the page to go on to comes from `next`.
import { sameSitePath } from '#server/auth/next-path.ts'
import type { AnswerOf } from '#server/routes.ts'
import type { Route } from '../admin.ts'
import { submitJson } from '../forms.ts'

const next = new URLSearchParams(location.search).get('next')
document.querySelector<HTMLInputElement>('#code-step [name=next]')!.value = next ?? ''
submitJson<AnswerOf<Route<'POST /login/second-factor'>>>(
  'code-step',
  '/login/second-factor',
  (signedIn) => (location.href = sameSitePath(next, signedIn.start)),
)
