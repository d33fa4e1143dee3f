// What the service learns about a request before routing (its path, client address and credential), kept for
// the rest of its handling. Set once per request by the credentials plugin.
import type { Caller } from '../auth/credential.ts'

export interface RequestState {
  path: string
  address: string | null
  caller: Caller | null
}

const states = new WeakMap<Request, RequestState>()

export const requestState = {
  set: (request: Request, state: RequestState) => void states.set(request, state),
  /** The state of a request the credentials plugin saw (every request the app handles). */
  of: (request: Request): RequestState => states.get(request) ?? { path: '/', address: null, caller: null },
}
