// The service worker's push handlers (push, notificationclick), imported by sw.js. A placeholder until the push
// notifications land: it handles nothing.
