// Signing in by a mailed link in Chromium at 375 px, with a real SMTP relay on loopback: a parent on the roster with
// no account asks for a link on the sign-in page and lands on their own household; a leader's "Welcome families" on
// the roster page mails a family a link that does the same; a second factor is still asked for after a link. Opening a
// link changes nothing until its button is pressed.
import { beforeAll, describe, expect, it } from 'bun:test'
import type { Page } from 'playwright-core'
import { Secret, TOTP } from 'otpauth'
import { ROLES } from '../helpers.ts'
import { addHousehold } from '../households.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'
import { browserSuite, PHONE } from './browser.ts'

let relay: TestRelay
beforeAll(async () => {
  relay = await startRelay()
})
const suite = browserSuite(() => ({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }), { localhost: true })

const linkOf = (email: string) =>
  suite.s.db.selectFrom('login_links').select(['used_at']).where('email', '=', email).executeTakeFirstOrThrow()

/** Opens a mailed sign-in link in a fresh phone-sized browser, checks opening it used nothing, and signs in with it. */
async function signInWithLink(url: string, email: string): Promise<Page> {
  const family = await suite.browser.newContext({ viewport: PHONE })
  const page = await family.newPage()
  await page.goto(url)
  await page.getByRole('heading', { name: 'Sign in with your link' }).waitFor()
  // A mail scanner opening the link changes nothing: only the button uses it.
  expect((await linkOf(email)).used_at).toBeNull()
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
  await page.waitForURL((u) => u.pathname === '/family/')
  expect((await linkOf(email)).used_at).not.toBeNull()
  return page
}

describe('a sign-in link by mail, in a browser', () => {
  it('a parent on the roster with no account asks for a link on /login/ and lands on their own household', async () => {
    const email = 'roster.parent@example.org'
    await addHousehold(suite.s.db, { unit: 'pack', email, parent_name: 'Jordan Lee', scouts: [{ first_name: 'Riley', last_name: 'Lee' }] })
    const page = await suite.browser.newPage({ viewport: PHONE })
    await page.goto(`${suite.s.url}/login/`)
    await page.getByRole('link', { name: 'Email me a sign-in link' }).click()
    await page.getByLabel('Email').fill(email)
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click()
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor()
    await page.close()
    const mail = await relay.waitFor(email)
    const family = await signInWithLink(linkIn(mail, `${suite.s.url}/login/link/`), email)
    await family.getByText('Riley').first().waitFor()
    expect(await family.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await family.context().close()
  })

  it('a leader welcomes the families of the roster; a family signs in from the welcome', async () => {
    const email = 'welcomed.family@example.org'
    await addHousehold(suite.s.db, { unit: 'pack', email, parent_name: 'Sam Park', scouts: [{ first_name: 'Avery', last_name: 'Park' }] })
    await suite.s.person({ units: [{ slug: 'pack', role: 'leader', title: 'Cubmaster' }], email: 'welcoming.leader@example.org' })
    const page = await suite.signedIn('welcoming.leader@example.org', '/admin/roster/')
    await page.getByText('Welcome families').click()
    await page.getByRole('button', { name: 'Mail the welcome' }).click()
    await page.getByRole('status').filter({ hasText: 'Queued 1 welcome mail' }).waitFor()
    await page.close()
    const mail = await relay.waitFor(email)
    expect(mail.subject).toBe('Welcome to Pack & Troop')
    const family = await signInWithLink(linkIn(mail, `${suite.s.url}/login/link/`), email)
    await family.getByText('Avery').first().waitFor()
    await family.context().close()
  })

  it('a person with a second factor still gives it after the link: the code page, then their start page', async () => {
    const p = await suite.s.as({ ...ROLES.member, email: 'careful.parent@example.org' })
    await suite.s.confirm(p.cookie)
    const started = await suite.s.req('POST', '/api/admin/account/totp', { cookie: p.cookie })
    const code = new TOTP({ secret: Secret.fromBase32(started.body.secret) }).generate()
    const confirmed = await suite.s.req('POST', '/api/admin/account/totp/confirm', { cookie: p.cookie, json: { code } })
    const page = await suite.browser.newPage({ viewport: PHONE })
    await page.goto(`${suite.s.url}/login/email-link/`)
    await page.getByLabel('Email').fill(p.email)
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click()
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor()
    const mails = () => relay.received.filter((m) => m.to.includes(p.email) && m.text.includes('/login/link/'))
    while (!mails().length) await relay.waitForCount(relay.received.length + 1)
    await page.goto(linkIn(mails()[0], `${suite.s.url}/login/link/`))
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL((u) => u.pathname === '/login/second-factor/')
    await page.getByLabel('Code').fill(confirmed.body.recovery_codes[0])
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL((u) => u.pathname === '/family/')
    await page.close()
  })
})
