// Mail in a browser, with a real SMTP relay on loopback: "Forgot your password?" from the sign-in page to a new
// password through the mailed link, and a leader's invite mailed from the People page and accepted from the mail.
import { beforeAll, describe, expect, it } from 'bun:test'
import { ROLES } from '../helpers.ts'
import { linkIn, startRelay, type TestRelay } from '../mail.ts'
import { browserSuite, PHONE } from './browser.ts'

let relay: TestRelay
beforeAll(async () => {
  relay = await startRelay()
})
const suite = browserSuite(() => ({ SMTP_URL: relay.url, MAIL_FROM: 'Pack 123 <pack123@example.org>' }), { localhost: true })

describe('mail in a browser', () => {
  it('"Forgot your password?" mails a link that sets a new password, and the new password signs in', async () => {
    const member = await suite.s.person({ ...ROLES.member, email: 'forgetful.parent@example.org' })
    const page = await suite.browser.newPage({ viewport: PHONE })
    await page.goto(`${suite.s.url}/login/`)
    await page.getByRole('link', { name: 'Forgot your password?' }).click()
    await page.getByLabel('Email').fill(member.email)
    await page.getByRole('button', { name: 'Email me a link' }).click()
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor()
    const link = linkIn(await relay.waitFor(member.email), `${suite.s.url}/reset/`)
    await page.goto(link)
    await page.getByLabel('New password').fill('a memorable new one')
    await page.getByRole('button', { name: 'Set password' }).click()
    // The sign-in page says the password is set, with the email filled in.
    await page.waitForURL((url) => url.pathname === '/login/')
    await page.getByText('Password set').waitFor()
    expect(await page.getByLabel('Email').inputValue()).toBe(member.email)
    await page.close()
    await (await suite.signedIn(member.email, undefined, { password: 'a memorable new one' })).close()
  })

  it('a leader invites a family with "Email it to them"; the family accepts from the mail', async () => {
    await suite.s.person({ ...ROLES.packLeader, email: 'mailing.leader@example.org' })
    const page = await suite.signedIn('mailing.leader@example.org', '/admin/people/')
    await page.getByLabel('Email', { exact: true }).fill('mailed.family@example.org')
    await page.getByLabel('Role in Cub Scout Pack').selectOption('member')
    expect(await page.getByLabel('Email it to them').isChecked()).toBe(true)
    await page.getByRole('button', { name: 'Create invite link' }).click()
    await page.locator('#link-label').filter({ hasText: 'Mailed to mailed.family@example.org.' }).waitFor()
    await page.close()
    const mail = await relay.waitFor('mailed.family@example.org')
    expect(mail.text).toContain('invited you to Pack & Troop as member of Cub Scout Pack.')
    const family = await suite.browser.newContext({ viewport: PHONE })
    const tab = await family.newPage()
    await tab.goto(linkIn(mail, `${suite.s.url}/invite/`))
    await tab.getByLabel('Your name').fill('Mailed Family')
    await tab.getByLabel('Password').fill('family password')
    await tab.getByRole('button', { name: 'Create my account' }).click()
    await tab.waitForURL(`${suite.s.url}/family/`)
    await family.close()
  })

  it('a leader turns off the mails about new leads on the account page, and the join form then mails them nothing', async () => {
    const leader = await suite.s.person({ ...ROLES.troopLeader, email: 'busy.leader@example.org' })
    const page = await suite.signedIn(leader.email, '/admin/account/')
    // The section shows once the preference has been read: only then does the box say it.
    const section = page.getByRole('heading', { name: 'Mail from the site' })
    const box = page.getByLabel('Mail me when a family sends the join form about a unit I lead')
    await section.waitFor()
    expect(await box.isChecked()).toBe(true)
    await box.uncheck()
    await page.getByText('No more mails about new leads.').waitFor()
    await page.reload()
    await section.waitFor()
    expect(await box.isChecked()).toBe(false)
    await page.close()
    const other = await suite.s.person({ ...ROLES.troopLeader, email: 'keen.leader@example.org' })
    expect(
      (await suite.s.req('POST', '/api/join', { json: { parent_name: 'New Family', phone: '555 0100 333', unit: 'troop' } })).status,
    ).toBe(201)
    await relay.waitFor(other.email)
    // Both would have been queued in the one write that stored the lead.
    expect(await suite.s.db.selectFrom('mail_outbox').select('id').where('to_address', '=', leader.email).execute()).toEqual([])
  })
})
