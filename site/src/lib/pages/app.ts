// On every page: the service worker (public/sw.js: the offline page and the trip rosters kept offline), and for a
// signed-in leader the manifest whose app starts at the admin section.
import { readHint } from '#server/auth/signed-in-hint.ts'

if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => {})

const manifest = document.querySelector<HTMLLinkElement>('link[rel="manifest"]')
if (manifest && readHint(document.cookie)?.start === '/admin/') manifest.href = '/admin/manifest.webmanifest'
