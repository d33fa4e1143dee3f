// The test servers' shared first builds (tests/site-build-cache.ts) only save time while two servers of the same
// content get the same key: a per-server path in the key (the files folder did) makes every browser file build anew.
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import path from 'node:path'
import { ROLES, startServer, type TestServer } from './helpers.ts'
import { contentKey } from './site-build-cache.ts'

let a: TestServer
let b: TestServer
beforeAll(async () => {
  a = await startServer({}, { site: true })
  b = await startServer({}, { site: true })
})
afterAll(async () => {
  await a.stop()
  await b.stop()
})

const keyOf = (s: TestServer) => contentKey({ ...process.env, DATABASE_PATH: path.join(s.dir, 'site.db') })

describe('the first-build cache key', () => {
  it('is the same for two new servers in their own folders, and changes with a row', async () => {
    expect(keyOf(a)).toBe(keyOf(b))
    await b.person({ ...ROLES.member, email: 'cache.key@example.org' })
    expect(keyOf(a)).not.toBe(keyOf(b))
  })
})
