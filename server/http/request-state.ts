// What the service learns about a request before routing (its path, credential and, when asked, its client
// address), kept for the rest of its handling. Set once per request by the front door.
import type { Caller } from '../auth/credential.ts'
import { requestTarget } from './request-path.ts'

/**
 * Answers a repeat of a request from a cache (the same answer its route would give), or null when the cache no
 * longer holds it: the route answers then.
 */
export type Repeat = (request: Request) => Response | Promise<Response> | null

/** Repeats by request target (path and query as sent); a few thousand at most, since the targets are the clients' own. */
export class Repeats {
  #byTarget = new Map<string, Repeat>()

  get(target: string): Repeat | undefined {
    return this.#byTarget.get(target)
  }

  set(target: string, repeat: Repeat) {
    if (this.#byTarget.size >= 4096) this.#byTarget.clear()
    this.#byTarget.set(target, repeat)
  }
}

/** Reads a request's client address (the peer, or the proxy's header when the peer is a trusted proxy). */
export type AddressReader = (request: Request) => string | null

export interface RequestState {
  path: string
  caller: Caller | null
  /** Undefined until first asked: most requests (a catalog 304, a page) never need it. */
  address?: string | null
  readAddress: AddressReader
  /** Where a public GET's route may leave a repeat of its answer; null for every other request. */
  repeats: Repeats | null
}

const states = new WeakMap<Request, RequestState>()
const NONE: RequestState = { path: '/', caller: null, address: null, readAddress: () => null, repeats: null }

export const requestState = {
  set: (request: Request, state: RequestState) => void states.set(request, state),
  /** The state of a request the front door saw (every request the app handles). */
  of: (request: Request): RequestState => states.get(request) ?? NONE,
  /** Lets the front door answer the next request for this target with `repeat`, before routing. */
  repeatWith(request: Request, repeat: Repeat) {
    states.get(request)?.repeats?.set(requestTarget(request.url), repeat)
  },
  /** The request's client address, read once. */
  address(request: Request): string | null {
    const state = states.get(request)
    if (!state) return null
    if (state.address === undefined) state.address = state.readAddress(request)
    return state.address
  },
}
