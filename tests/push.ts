// A push service stand-in on loopback (a real HTTP server): tests make devices on it (a P-256 key pair and an auth
// secret, as a browser does), and it takes each push the way a push service does, checks its VAPID signature
// (RFC 8292) and decrypts its payload with the device's private key (RFC 8291, aes128gcm, node:crypto only), then
// answers 201, or what the test asked for: a refusal (410, 500…) or a hold until the test lets it go.
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto'

export interface TestDevice {
  id: string
  /** What `PushSubscription.toJSON()` gives: POST it to /api/admin/account/push. */
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } }
}

export interface Pushed {
  device: string
  /** The decrypted payload, parsed: `{title, body, url, tag}`. */
  payload: { title: string; body: string; url: string; tag: string }
  /** The VAPID public key the push was signed with (k=), checked against its JWT. */
  vapidKey: string
  headers: Headers
}

type Answer = number | 'hold'

export interface PushStandIn {
  url: string
  device(): TestDevice
  /** Every push answered with a 2xx so far, in order. */
  received: Pushed[]
  /** Requests that could not be read (a bad signature or payload): each a reason. */
  broken: string[]
  answerNext(...answers: Answer[]): void
  /** Resolves once a push is held (read and decrypted, no answer given yet). */
  held(): Promise<void>
  /** Answers the held push: 201 (it counts as received) or never (the sender's connection is gone). */
  release(accept: boolean): void
  waitForCount(count: number, ms?: number): Promise<Pushed[]>
  close(): Promise<void>
}

const ENCODER = new TextEncoder()
const info = (label: string, ...parts: Buffer[]) => Buffer.concat([Buffer.from(label, 'latin1'), ...parts])

/** RFC 8291 §3.4 and RFC 8188: the plaintext of an aes128gcm body for the device with this key pair and secret. */
export function decryptPush(body: Buffer, device: { privateKey: Buffer; publicKey: Buffer; auth: Buffer }): string {
  const salt = body.subarray(0, 16)
  const idlen = body[20]
  const serverKey = body.subarray(21, 21 + idlen)
  const record = body.subarray(21 + idlen)
  const ecdh = createECDH('prime256v1')
  ecdh.setPrivateKey(device.privateKey)
  const secret = ecdh.computeSecret(serverKey)
  const ikm = Buffer.from(hkdfSync('sha256', secret, device.auth, info('WebPush: info\0', device.publicKey, serverKey), 32))
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, info('Content-Encoding: aes128gcm\0'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, info('Content-Encoding: nonce\0'), 12))
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(record.subarray(record.length - 16))
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()])
  let end = plain.length - 1
  while (end >= 0 && plain[end] === 0) end--
  if (plain[end] !== 2) throw new Error('no last-record delimiter (0x02) after the payload')
  return plain.subarray(0, end).toString('utf8')
}

/** RFC 8292: `vapid t=<JWT>, k=<key>`, an ES256 JWT for this audience, not expired, signed by key k. */
export function checkVapid(authorization: string | null, audience: string): string {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '')
  if (!m) throw new Error(`not a VAPID authorization: ${authorization}`)
  const [head, claims, signature] = m[1].split('.')
  const k = Buffer.from(m[2], 'base64url')
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: k.subarray(1, 33).toString('base64url'), y: k.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  })
  const ok = verify('sha256', ENCODER.encode(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))
  if (!ok) throw new Error('the VAPID signature does not verify')
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString())
  if (body.aud !== audience) throw new Error(`VAPID aud ${body.aud}, not ${audience}`)
  if (!(body.exp * 1000 > Date.now())) throw new Error('the VAPID JWT has expired')
  return m[2]
}

export async function startPushService(): Promise<PushStandIn> {
  const devices = new Map<string, { privateKey: Buffer; publicKey: Buffer; auth: Buffer }>()
  const received: Pushed[] = []
  const broken: string[] = []
  const answers: Answer[] = []
  let waiters: (() => void)[] = []
  let heldNow: ((accept: boolean) => void) | null = null
  let heldSignal: (() => void) | null = null
  const notify = () => {
    const current = waiters
    waiters = []
    for (const w of current) w()
  }
  let next = 0
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const id = /^\/push\/([\w-]+)$/.exec(new URL(request.url).pathname)?.[1]
      const device = id && devices.get(id)
      if (request.method !== 'POST' || !device) return new Response('no such subscription', { status: 404 })
      let pushed: Pushed
      try {
        const vapidKey = checkVapid(request.headers.get('authorization'), new URL(request.url).origin)
        if (request.headers.get('content-encoding') !== 'aes128gcm') throw new Error('not aes128gcm')
        const payload = JSON.parse(decryptPush(Buffer.from(await request.arrayBuffer()), device))
        pushed = { device: id, payload, vapidKey, headers: request.headers }
      } catch (error) {
        broken.push(String(error))
        notify()
        return new Response(String(error), { status: 400 })
      }
      const answer = answers.shift() ?? 201
      if (answer === 'hold') {
        const accept = await new Promise<boolean>((resolve) => {
          heldNow = resolve
          heldSignal?.()
        })
        heldNow = null
        if (!accept) return new Promise<Response>(() => {}) // never answers: the sender's connection is gone
      } else if (answer >= 300) return new Response(`refused with ${answer}`, { status: answer })
      received.push(pushed)
      notify()
      return new Response(null, { status: 201 })
    },
  })
  const url = `http://127.0.0.1:${server.port}`
  return {
    url,
    received,
    broken,
    device() {
      const ecdh = createECDH('prime256v1')
      const publicKey = ecdh.generateKeys()
      const auth = randomBytes(16)
      const id = `d${++next}-${randomBytes(4).toString('hex')}`
      devices.set(id, { privateKey: ecdh.getPrivateKey(), publicKey, auth })
      return {
        id,
        subscription: {
          endpoint: `${url}/push/${id}`,
          keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') },
        },
      }
    },
    answerNext: (...a) => void answers.push(...a),
    held: () =>
      new Promise<void>((resolve) => {
        if (heldNow) return resolve()
        heldSignal = () => {
          heldSignal = null
          resolve()
        }
      }),
    release(accept) {
      heldNow?.(accept)
    },
    async waitForCount(count, ms = 10_000) {
      const deadline = Date.now() + ms
      while (received.length < count) {
        if (broken.length) throw new Error(`the stand-in could not read a push: ${broken.join('; ')}`)
        const left = deadline - Date.now()
        if (left <= 0) throw new Error(`${received.length} pushes, not ${count}, within ${ms} ms`)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left)
          waiters.push(() => (clearTimeout(timer), resolve()))
        })
      }
      return received
    },
    async close() {
      heldNow?.(false)
      server.stop(true)
    },
  }
}
