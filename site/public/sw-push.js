// Notifications from the site, in the service worker: each push (already decrypted by the browser) carries a title,
// a line and the page to open; a tap opens that page, or focuses it when it is already open. Served at /sw-push.js:
// the site's service worker (/sw.js) takes it in with importScripts.
self.addEventListener('push', (event) => {
  let data = {}
  try {
    data = event.data ? event.data.json() : {}
  } catch {
    data = { body: event.data ? event.data.text() : '' }
  }
  const url = new URL(data.url || '/', self.location.origin).href
  event.waitUntil(
    self.registration.showNotification(data.title || 'News from the site', {
      body: data.body || '',
      // The same push sent again after a restart has the same tag: it replaces the first instead of buzzing twice.
      tag: data.tag,
      icon: '/favicon.svg',
      data: { url },
    }),
  )
})

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = (event.notification.data && event.notification.data.url) || '/'
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      const same = open.find((w) => w.url === url)
      if (same) return same.focus()
      return self.clients.openWindow(url)
    })(),
  )
})
