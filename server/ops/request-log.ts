// The request log: wraps the app's fetch handler (Elysia's `wrap`, which both its per-route handlers and its
// general handler go through), so every answer is logged once, refusals from the credentials hook included,
// with one performance.now() pair and one buffered line per request.
import type { HigherOrderFunction } from 'elysia/types'
import type { Logger } from './log.ts'

type Fetch = (request: Request) => Response | Promise<Response>

/** For `app.wrap(...)`: logs each answer's status and time; an error that escapes the app is logged as 500. */
export function logRequests(log: Logger): HigherOrderFunction {
  const wrap =
    (fetch: Fetch) =>
    (request: Request): Response | Promise<Response> => {
      const started = performance.now()
      let answer: Response | Promise<Response>
      try {
        answer = fetch(request)
      } catch (error) {
        log.request(request, 500, started)
        throw error
      }
      if (!(answer instanceof Promise)) {
        log.request(request, answer.status, started)
        return answer
      }
      return answer.then(
        (response) => {
          log.request(request, response.status, started)
          return response
        },
        (error) => {
          log.request(request, 500, started)
          throw error
        },
      )
    }
  // Elysia types the wrapped handler loosely (a Function); it is the fetch handler, request in, answer out.
  return wrap as unknown as HigherOrderFunction
}
