// Browser test at phone width, with a real SMTP relay and a push-service stand-in on loopback: the family page asks
// the browser for notifications only when "Turn on notifications" is pressed, subscribes with the site's VAPID key and
// hands the subscription to the server; an urgent message then reaches the stand-in, which decrypts it with the
// device's private key, and that payload, delivered to /sw-push.js through Chromium's DevTools protocol, is shown as
// a notification. Debian's Chromium cannot subscribe for itself ("Registration failed - permission denied": it has no
// push service to register with), so the page is handed a PushSubscription of a key pair the test made.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ROLES } from '../helpers.ts'
import { familyAccount } from '../households.ts'
import { startRelay, type TestRelay } from '../mail.ts'
import { startPushService, type PushStandIn } from '../push.ts'
import type { Page } from 'playwright-core'
import { browserSuite, screenshot, seriousViolations } from './browser.ts'

let relay: TestRelay
let push: PushStandIn
beforeAll(async () => {
  relay = await startRelay()
  push = await startPushService()
})
afterAll(async () => {
  await relay?.close()
  await push?.close()
})
const suite = browserSuite(
  () => ({
    SMTP_URL: relay.url,
    MAIL_FROM: 'Pack 123 <pack123@example.org>',
    OUTBOUND_ALLOW: '127.0.0.1/32',
  }),
  { wholeBrowser: true },
)

/** What the page is given in place of Chromium's own subscribe: the test device, and a count of permission asks. */
function standInPushManager(sub: { endpoint: string; keys: { p256dh: string; auth: string } }) {
  const w = window as any
  w.asked = 0
  Notification.requestPermission = async () => {
    w.asked++
    return 'granted' // the person pressed Allow
  }
  let current: any = null
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    w.key = btoa(String.fromCharCode(...new Uint8Array(options!.applicationServerKey as ArrayBuffer)))
    current = {
      endpoint: sub.endpoint,
      toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
      unsubscribe: async () => ((current = null), true),
    }
    return current
  }
  PushManager.prototype.getSubscription = async () => current
}

interface WorkerVersion {
  versionId: string
  registrationId: string
  status: string
  runningStatus: string
}

/**
 * The service worker of one scope as Chromium's DevTools protocol reports it. `until` waits for the reports to show
 * a state; past its bound it fails with everything reported, so that a failure in CI says where the worker stopped.
 */
async function watchWorker(page: Page, scopeURL: string) {
  const cdp = await page.context().newCDPSession(page)
  const scopes = new Map<string, string>()
  const versions = new Map<string, WorkerVersion>()
  const errors: string[] = []
  let changed = () => {}
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
    for (const r of e.registrations) scopes.set(r.registrationId, r.isDeleted ? `${r.scopeURL} (deleted)` : r.scopeURL)
    changed()
  })
  cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
    for (const v of e.versions) versions.set(v.versionId, v)
    changed()
  })
  cdp.on('ServiceWorker.workerErrorReported', (e) => errors.push(e.errorMessage.errorMessage))
  page.on('crash', () => errors.push('the page crashed'))
  await cdp.send('ServiceWorker.enable')
  const seen = () => JSON.stringify({ scopes: Object.fromEntries(scopes), versions: [...versions.values()], errors })
  return {
    cdp,
    seen,
    version: (match: (v: WorkerVersion) => boolean) =>
      [...versions.values()].find((v) => scopes.get(v.registrationId) === scopeURL && match(v)),
    async until<T>(state: string, found: () => T | undefined, ms = 30_000): Promise<T> {
      const deadline = Date.now() + ms
      for (;;) {
        const value = found()
        if (value) return value
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`the service worker was not ${state} within ${ms} ms; DevTools reported ${seen()}`)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          changed = () => (clearTimeout(timer), resolve())
        })
      }
    },
  }
}

describe('notifications on a phone', () => {
  it('asks only when pressed, subscribes with the site key, and an urgent message shows as a notification', async () => {
    const s = suite.s
    const parent = await familyAccount(s, { unit: 'pack', email: null, parent_name: 'Robin Push' })
    const leader = await s.as(ROLES.packLeader)
    const device = push.device()
    const page = await suite.signedIn(parent.email)
    // The site's worker installed and active before the page that subscribes, as for a family who has been here before.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => {}))
    await page.addInitScript(standInPushManager, device.subscription)
    await page.goto(`${s.url}/family/`)
    const section = page.locator('#push')
    const button = section.getByRole('button', { name: 'Turn on notifications' })
    // The page's scripts set the state once the family page's own reads have answered.
    await section.locator('#push-state').getByText('Notifications are off for this device.', { exact: true }).waitFor()
    await button.waitFor()
    // Nothing was asked on the way in.
    expect(await page.evaluate(() => [(window as any).asked, Notification.permission])).toEqual([0, 'default'])
    expect(await seriousViolations(page)).toEqual([])

    await button.click()
    await section.getByText('Notifications are on for this device.').waitFor()
    expect(await page.evaluate(() => (window as any).asked)).toBe(1)
    const key = (await s.req('GET', '/api/push/key')).body.public_key
    expect(Buffer.from(await page.evaluate(() => (window as any).key), 'base64').toString('base64url')).toBe(key)
    const mine = await s.req('GET', '/api/admin/account/push', { cookie: await s.signIn(parent.email) })
    expect(mine.body.devices).toMatchObject([{ service: new URL(push.url).host }])
    expect(await section.getByRole('button', { name: 'Turn off on this device' }).isVisible()).toBe(true)
    await screenshot(page, 'push/family-notifications-on')

    const sent = await s.req('POST', '/api/admin/messages', {
      cookie: leader.cookie,
      json: { subject: 'Campout cancelled', body: 'The road is **closed**.', audience: { households: [parent.household] }, urgent: true },
    })
    expect(sent.status).toBe(201)
    const [pushed] = await push.waitForCount(1)
    expect(pushed.payload).toMatchObject({ title: 'Campout cancelled', body: 'The road is closed.', url: `http://127.0.0.1:1/family/` })

    // The payload as the phone would decrypt it, delivered to the site's service worker, becomes a notification.
    const origin = new URL(s.url).origin
    await page.context().grantPermissions(['notifications'], { origin })
    const worker = await watchWorker(page, `${origin}/`)
    // A push reaches the worker once it is activated and running: delivered before, Chromium may drop it.
    const active = await worker.until('activated', () => worker.version((v) => v.status === 'activated'))
    if (active.runningStatus !== 'running') await worker.cdp.send('ServiceWorker.startWorker', { scopeURL: `${origin}/` })
    await worker.until('running', () => worker.version((v) => v.versionId === active.versionId && v.runningStatus === 'running'))
    const deliver = () =>
      worker.cdp.send('ServiceWorker.deliverPushMessage', {
        origin,
        registrationId: active.registrationId,
        data: JSON.stringify(pushed.payload),
      })
    const shownWithin = (ms: number) =>
      page.evaluate(async (ms) => {
        const reg = await navigator.serviceWorker.ready
        for (const deadline = Date.now() + ms; Date.now() < deadline;) {
          const notes = await reg.getNotifications()
          if (notes.length) return notes.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data.url }))
          await new Promise((resolve) => setTimeout(resolve, 20)) // timers run in a page Chromium deems hidden; frames may not
        }
        return []
      }, ms)
    // Chromium has dropped a push delivered to a worker it reported activated and running (a busy CI machine): the
    // same push again, as a push service retries, has the same tag and replaces rather than adds a notification.
    await deliver()
    let shown = await shownWithin(5_000)
    for (let again = 0; again < 5 && !shown.length; again++) {
      await deliver()
      shown = await shownWithin(5_000)
    }
    if (!shown.length) throw new Error(`no notification in 30 s, the push delivered six times; the worker: ${worker.seen()}`)
    expect(shown).toEqual([
      { title: 'Campout cancelled', body: 'The road is closed.', tag: pushed.payload.tag, url: 'http://127.0.0.1:1/family/' },
    ])

    await section.getByRole('button', { name: 'Turn off on this device' }).click()
    await section.getByText('Notifications are off for this device.').waitFor()
    expect((await s.req('GET', '/api/admin/account/push', { cookie: await s.signIn(parent.email) })).body.devices).toEqual([])
  })

  it('the account page keeps each choice of mail, notification or both; the lead alert only for a leader', async () => {
    const s = suite.s
    const parent = await familyAccount(s, { unit: 'pack', email: null })
    const page = await suite.signedIn(parent.email, '/admin/account/')
    const kinds = page.locator('#push-kinds')
    const reminders = kinds.getByLabel('Reminders before events and before sign-ups close')
    await reminders.waitFor()
    expect(await kinds.locator('select').count()).toBe(3)
    expect(await reminders.inputValue()).toBe('both')
    await reminders.selectOption({ label: 'Notification only' })
    await page.getByText('Reminders before events and before sign-ups close: notification only.').waitFor()
    const cookie = await s.signIn(parent.email)
    expect((await s.req('GET', '/api/admin/account/push', { cookie })).body.preferences).toMatchObject({ reminder: 'push', urgent: 'both' })
    expect(await seriousViolations(page)).toEqual([])
    await screenshot(page, 'push/account-choices')

    const leader = await s.as(ROLES.packLeader)
    const leaderPage = await suite.signedIn(leader.email, '/admin/account/')
    await leaderPage.locator('#push-kinds').getByLabel('A new family sent the join form').waitFor()
    expect(await leaderPage.locator('#push-kinds select').count()).toBe(4)
  })
})
