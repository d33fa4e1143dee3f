// "Turn on notifications" on the account and family pages: the browser asks for permission only when the button is
// pressed; then this device subscribes with the site's VAPID key (GET /api/push/key) and the server keeps it. The
// account page also shows the choice of mail, push or both for each kind of news.
import { api, byId, h, showError, showStatus } from './admin.ts'

const KINDS = {
  urgent: 'Urgent messages from leaders',
  reminder: 'Reminders before events and before sign-ups close',
  signup: 'Sign-up news: a place came free, a slip to sign again',
  lead_alert: 'A new family sent the join form',
} as const
const CHANNEL_WORDS = { both: 'Mail and notification', push: 'Notification only', mail: 'Mail only' } as const

const supported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window

/** The applicationServerKey as bytes: the key is base64url. */
function keyBytes(key: string): Uint8Array<ArrayBuffer> {
  const raw = atob(key.replace(/-/g, '+').replace(/_/g, '/'))
  return Uint8Array.from(raw, (c) => c.charCodeAt(0))
}

/** The site's service worker registration (`/sw.js`, which takes in the push handlers), registered now if need be. */
async function registration(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration('/')
  if (existing) return existing
  await navigator.serviceWorker.register('/sw.js', { scope: '/' })
  return navigator.serviceWorker.ready
}

const subscription = async () => (await (await navigator.serviceWorker.getRegistration('/'))?.pushManager.getSubscription()) ?? null

/** Fills the #push section: its state on this device and the buttons that turn notifications on and off. */
export async function setUpPushButton(): Promise<void> {
  // Pushes go with the mail: a site without mail shows no section.
  if (!document.getElementById('push')) return
  const [on, off, state, status] = [
    byId<HTMLButtonElement>('push-on'),
    byId<HTMLButtonElement>('push-off'),
    byId('push-state'),
    byId('push-status'),
  ]
  if (!supported()) {
    on.hidden = true
    state.textContent =
      'This browser cannot show notifications from the site. On an iPhone or iPad (iOS 16.4 or later), add the site to the home screen first and open it from there.'
    return
  }
  const render = async () => {
    const current = await subscription()
    const blocked = Notification.permission === 'denied'
    on.hidden = !!current || blocked
    off.hidden = !current
    state.textContent = current
      ? 'Notifications are on for this device.'
      : blocked
        ? 'Notifications are blocked for this site in the browser settings: allow them there first.'
        : 'Notifications are off for this device.'
  }
  on.addEventListener('click', async () => {
    on.disabled = true
    try {
      if ((await Notification.requestPermission()) !== 'granted') return showError('The browser did not allow notifications.', status)
      const key = await api('GET', '/api/push/key')
      if (!key.ok) return showError(key, status)
      const reg = await registration()
      const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key.body.public_key) })
      const json = sub.toJSON()
      const res = await api('POST', '/api/admin/account/push', {
        endpoint: sub.endpoint,
        keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
      })
      if (!res.ok) {
        await sub.unsubscribe()
        return showError(res, status)
      }
      showStatus('', status)
    } catch (error) {
      showError(`The browser could not turn notifications on: ${(error as Error).message}`, status)
    } finally {
      on.disabled = false
      await render()
    }
  })
  off.addEventListener('click', async () => {
    const current = await subscription()
    if (!current) return render()
    const res = await api('DELETE', '/api/admin/account/push', { endpoint: current.endpoint })
    // 404: the server had already dropped it (its push service said it was gone): this device stops too.
    if (res.ok || res.status === 404) {
      await current.unsubscribe()
      showStatus('', status)
    } else showError(res, status)
    await render()
  })
  await render()
}

/** The account page's choices: mail, push or both for each kind (lead alerts only for a leader). */
export async function setUpPushChoices(leader: boolean): Promise<void> {
  if (!document.getElementById('push-kinds')) return
  const view = await api('GET', '/api/admin/account/push')
  if (!view.ok) return
  const status = byId('push-status')
  const kinds = (Object.keys(KINDS) as (keyof typeof KINDS)[]).filter((k) => leader || k !== 'lead_alert')
  byId('push-kinds').replaceChildren(
    ...kinds.map((kind) => {
      const select = h(
        'select',
        {
          name: kind,
          onchange: async (event: Event) => {
            const value = (event.currentTarget as HTMLSelectElement).value as keyof typeof CHANNEL_WORDS
            const res = await api('PUT', '/api/admin/account/push/preferences', { [kind]: value })
            if (res.ok) showStatus(`${KINDS[kind]}: ${CHANNEL_WORDS[value].toLowerCase()}.`, status)
            else showError(res, status)
          },
        },
        ...Object.entries(CHANNEL_WORDS).map(([value, words]) =>
          h('option', { value, selected: view.body.preferences[kind] === value }, words),
        ),
      )
      return h('label', {}, KINDS[kind], ' ', select)
    }),
  )
}
