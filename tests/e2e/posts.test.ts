// Browser test of social posts: a leader cancels a post from the admin page; the publisher stand-in receives it.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { ADMIN_TOKEN, ROLES } from '../helpers.ts'
import { browserSuite, loadedWidth, seriousViolations } from './browser.ts'

const cancelled: string[] = []
const publisher = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(req) {
    cancelled.push(new URL(req.url).pathname)
    return Response.json({ ok: true })
  },
})

const suite = browserSuite(() => ({ OUTBOUND_ALLOW: '127.0.0.1/32' })) // the publisher stand-in is on loopback
let leader: { email: string }
beforeAll(async () => (leader = await suite.s.person({ ...ROLES.troopLeader, email: 'posts.leader@example.org' })))
afterAll(() => publisher.stop(true))

describe('social posts in a browser', () => {
  it('shows an upcoming post with its image and cancels it after confirmation', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64')
    const res = await suite.s.req('POST', '/api/admin/socialposts/ingest', {
      token: ADMIN_TOKEN,
      json: {
        id: 'troop/2099-01-05-fundraiser',
        unit: 'troop',
        status: 'scheduled',
        message: 'Wreath fundraiser starts Saturday',
        scheduled_for: '2099-01-05T15:00:00Z',
        cancel_url: `http://127.0.0.1:${publisher.port}/cancel/troop-fundraiser?sig=abc`,
        image: { b64: png.toString('base64'), mime: 'image/png', sha256: new Bun.CryptoHasher('sha256').update(png).digest('hex') },
      },
    })
    expect(res.status).toBe(200)
    const page = await suite.signedIn(leader.email, '/admin/posts/')
    const card = page.locator('li.card', { hasText: 'Wreath fundraiser' })
    await card.waitFor()
    expect(await loadedWidth(card.getByRole('img'))).toBe(1)
    expect(await card.textContent()).toContain('Jan 5, 2099, 9:00 AM')
    expect(await seriousViolations(page)).toEqual([])
    await card.getByRole('button', { name: 'Cancel post' }).click()
    await page.getByRole('status').filter({ hasText: 'Post cancelled' }).waitFor()
    expect(cancelled).toEqual(['/cancel/troop-fundraiser'])
    // A cancelled post stays listed with its status, and nothing offers to cancel it again.
    const after = page.locator('li.card', { hasText: 'Wreath fundraiser' })
    await after.getByText('cancelled', { exact: true }).waitFor()
    expect(await after.getByRole('button', { name: 'Cancel post' }).count()).toBe(0)
    await page.close()
  })
})
