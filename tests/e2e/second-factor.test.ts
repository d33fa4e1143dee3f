// A second factor in Chromium, on http://localhost (passkeys need a host name): a leader the setting asks sees the
// banner, adds an authenticator app (codes computed from the secret the page shows) and a passkey (Chromium's virtual
// authenticator), signs in with each, with a recovery code and with a passkey alone; past the deadline only the
// account page opens.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { Secret, TOTP } from 'otpauth'
import type { CDPSession, Page } from 'playwright-core'
import { PASSWORD, ROLES } from '../helpers.ts'
import { browserSuite, PHONE, screenshot, seriousViolations } from './browser.ts'

const suite = browserSuite(() => ({}), { localhost: true })
let leader: { id: number; email: string }
let page: Page
let cdp: CDPSession

/** The code an authenticator app shows for `secret`, for the 30-second step after `step` steps from now. */
const codeFor = (secret: string, step = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + step * 30_000 })

beforeAll(async () => {
  const owner = await suite.s.as(ROLES.owner)
  leader = await suite.s.person({ ...ROLES.packLeader, email: 'second.factor.leader@example.org' })
  expect(
    (await suite.s.req('PUT', '/api/admin/settings/security.second_factor', { cookie: owner.cookie, json: { value: 'leaders' } })).status,
  ).toBe(200)
  page = await suite.browser.newPage({ viewport: PHONE, bypassCSP: true })
  page.on('dialog', (dialog) => dialog.accept())
  cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
})
afterAll(() => page?.close())

async function passwordStep(email = leader.email) {
  await page.goto(`${suite.s.url}/login/`)
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}

/** Answers the "Confirm it's you" dialog a fresh session meets before adding a factor. */
async function confirmItsYou() {
  const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' })
  await dialog.getByLabel('Your password').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Confirm' }).click()
}

async function signOut() {
  await page.goto(`${suite.s.url}/admin/account/`)
  await page.getByRole('button', { name: 'Sign out' }).click()
  await page.waitForURL((url) => url.pathname === '/login/')
}

describe('a second factor in a browser', () => {
  let secret = ''
  let recoveryCodes: string[] = []

  it('shows the deadline banner, then sets up an authenticator app from the QR page with a code, and shows ten recovery codes once', async () => {
    await passwordStep()
    await page.waitForURL((url) => url.pathname === '/admin/')
    const banner = page.locator('#second-factor-banner')
    await banner.getByText('please add one by').waitFor()
    await banner.getByRole('link', { name: 'Add an authenticator app or a passkey' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/account/')
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click()
    await confirmItsYou()
    await page.getByRole('img', { name: 'QR code holding the secret for your authenticator app' }).locator('svg').waitFor()
    await page.locator('#app-secret').filter({ hasText: /\w/ }).waitFor()
    secret = ((await page.locator('#app-secret').textContent()) ?? '').replace(/\s/g, '')
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(await page.getByRole('link', { name: 'open it in your authenticator app' }).getAttribute('href')).toStartWith('otpauth://totp/')
    await page.getByLabel('Code the app shows now').fill('000000')
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.locator('.field-error').filter({ hasText: 'the code your app shows now' }).waitFor()
    await page.getByLabel('Code the app shows now').fill(codeFor(secret))
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.getByRole('status').filter({ hasText: 'The authenticator app is on' }).waitFor()
    recoveryCodes = await page.locator('#codes code').allTextContents()
    expect(recoveryCodes.length).toBe(10)
    await page.getByText('10 of 10 recovery codes left.').waitFor()
    expect(await page.locator('#app-state').textContent()).toContain('not used yet')
    expect(await page.locator('#second-factor-banner').isHidden()).toBe(true)
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'account-second-factor-phone')
  })

  it('asks for the code after the password, and signs in with it', async () => {
    await signOut()
    await passwordStep()
    await page.getByRole('heading', { name: 'One more step' }).waitFor()
    expect(await seriousViolations(page)).toEqual([])
    await page.getByLabel('Code').fill('123456')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.locator('#second-error').filter({ hasText: 'did not work; 4 tries left' }).waitFor()
    await page.getByLabel('Code').fill(codeFor(secret, 1))
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/admin/')
  })

  it('adds a passkey, and signs in with it after the password and with the passkey alone', async () => {
    await page.goto(`${suite.s.url}/admin/account/`)
    await page.getByLabel('Name for this device').fill('Test phone')
    await page.getByRole('button', { name: 'Add a passkey' }).click()
    await confirmItsYou()
    await page.getByRole('status').filter({ hasText: 'Added the passkey “Test phone”' }).waitFor()
    await page.locator('#passkeys').getByText('Test phone').waitFor()
    // Not the first factor: the recovery codes stay as they were.
    await page.getByText('10 of 10 recovery codes left.').waitFor()

    await signOut()
    await passwordStep()
    await page.getByRole('button', { name: 'Use your passkey' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/')

    await signOut()
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/')
    const me = await page.evaluate(async () => (await (await fetch('/api/admin/whoami')).json()).person.email)
    expect(me).toBe(leader.email)
    const signIns = await suite.s.db
      .selectFrom('action_log')
      .select('summary')
      .where('kind', '=', 'login.success')
      .where('actor', '=', leader.email)
      .execute()
    expect(signIns.map((e) => e.summary.replace(/ from .*/, ''))).toContain('Signed in with a passkey')
  })

  it('signs in with a recovery code, once', async () => {
    await signOut()
    await passwordStep()
    await page.getByLabel('Code').fill(recoveryCodes[0])
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForURL((url) => url.pathname === '/admin/')
    await page.goto(`${suite.s.url}/admin/account/`)
    await page.getByText('9 of 10 recovery codes left.').waitFor()
  })

  it('opens only the account page past the deadline, until a second factor is added', async () => {
    const late = await suite.s.person({ ...ROLES.troopLeader, email: 'late.leader@example.org' })
    const sixteenDaysAgo = new Date(Date.now() - 16 * 86_400_000).toISOString()
    await suite.s.db.updateTable('people').set({ second_factor_asked_since: sixteenDaysAgo }).where('id', '=', late.id).execute()
    await signOut()
    await passwordStep(late.email)
    await page.waitForURL((url) => url.pathname === '/admin/')
    await page.locator('#second-factor-banner').getByText('only your account page opens').waitFor()
    await page.getByRole('link', { name: 'Add a second factor on your account page' }).waitFor()
    await page.goto(`${suite.s.url}/admin/roster/`)
    await page.getByRole('link', { name: 'Add a second factor on your account page' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/account/')
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click()
    await confirmItsYou()
    await page.locator('#app-secret').filter({ hasText: /\w/ }).waitFor()
    const lateSecret = ((await page.locator('#app-secret').textContent()) ?? '').replace(/\s/g, '')
    await page.getByLabel('Code the app shows now').fill(codeFor(lateSecret))
    await page.getByRole('button', { name: 'Turn on' }).click()
    await page.getByRole('status').filter({ hasText: 'The authenticator app is on' }).waitFor()
    await page.goto(`${suite.s.url}/admin/roster/`)
    await page.getByRole('heading', { name: 'Roster' }).waitFor()
    await page.locator('#households').waitFor()
    expect(await page.getByRole('link', { name: 'Add a second factor on your account page' }).count()).toBe(0)
  })
})

describe('API keys after a password change in a browser', () => {
  it('keeps them, and offers to revoke them all', async () => {
    const member = await suite.s.as({ ...ROLES.member, email: 'keys.after.password@example.org' })
    const { key } = await suite.s.mintKey(member.cookie, ['account:self'])
    const own = await suite.signedIn(member.email, '/admin/account/')
    await own.getByLabel('Current password').fill(PASSWORD)
    await own.getByLabel('New password (8 or more characters)').fill('a fresh long password')
    await own.getByRole('button', { name: 'Change password' }).click()
    await own.getByText('One API key of yours still works').waitFor()
    expect((await suite.s.req('GET', '/api/admin/whoami', { key })).status).toBe(200)
    await own.getByRole('button', { name: 'Revoke all my API keys' }).click()
    await own.getByRole('status').filter({ hasText: 'Revoked your key.' }).waitFor()
    expect((await suite.s.req('GET', '/api/admin/whoami', { key })).status).toBe(401)
    await own.close()
  })
})
