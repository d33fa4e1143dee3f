// The page of a mailed sign-in link: its button posts the token from the address; on to where the person's pages
// start, or to the second-factor page (the ticket came in its cookie).
import { submitJson } from '../forms.ts'

type Answer = { start: string } | { second_factor: { ticket: string } }

const token = location.pathname.split('/').filter(Boolean)[2] ?? ''
submitJson<Answer>('login-link', `/api/login-link/${encodeURIComponent(token)}`, (answer) => {
  location.href = 'start' in answer ? answer.start : '/login/second-factor/'
})
