// The one way the service reads a request's path. Bun hands over a relative URL when the Host header is
// malformed (`Host: a/b`); such a request, or one whose Host is not a host name, has no path we trust.
const HOST = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** Where the path begins in an absolute URL, after `scheme://host[:port]`; -1 when there is none. */
const pathStart = (url: string) => url.indexOf('/', url.indexOf('//') + 2)

/** The last Host header found good: a site is asked under one or two names, so the pattern rarely runs. */
let goodHost = ''

/**
 * The request's path (no query), or null when its URL or Host header cannot be read as such. `url` is
 * `request.url` when the caller has it already: each read of it makes a new string.
 */
export function requestPath(request: Request, url = request.url): string | null {
  if (!url.startsWith('http://') && !url.startsWith('https://')) return null
  const host = request.headers.get('host')
  if (host !== null && host !== goodHost) {
    if (!HOST.test(host)) return null
    goodHost = host
  }
  const start = pathStart(url)
  if (start < 0) return '/'
  const end = url.indexOf('?', start)
  return end < 0 ? url.slice(start) : url.slice(start, end)
}

/** `http://host:port` of a request whose path `requestPath` could read. */
export function requestOrigin(request: Request): string {
  const url = request.url
  const start = pathStart(url)
  return start < 0 ? url : url.slice(0, start)
}

/** `/path?query` of a request URL whose path `requestPath` could read: the target as the client sent it. */
export function requestTarget(url: string): string {
  const start = pathStart(url)
  return start < 0 ? '/' : url.slice(start)
}
