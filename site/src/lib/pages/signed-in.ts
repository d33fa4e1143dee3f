// The public header: once someone is signed in, "Sign in" becomes a link to where their pages start, with their name.
import { readHint } from '#server/auth/signed-in-hint.ts'

const hint = readHint(document.cookie)
const link = document.getElementById('account-link') as HTMLAnchorElement | null
if (hint && link) {
  link.href = hint.start
  link.textContent = `${hint.start === '/admin/' ? 'Admin' : 'Your family'} (${hint.name})`
  link.classList.add('who')
}
