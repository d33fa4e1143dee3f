// What the service learns about a request before routing (its path, credential and, when asked, its client
// address), kept for the rest of its handling. Set once per request by the front door.
import type { Caller } from '../auth/credential.ts'

/** Reads a request's client address (the peer, or the proxy's header when the peer is a trusted proxy). */
export type AddressReader = (request: Request) => string | null

export interface RequestState {
  path: string
  caller: Caller | null
  /** Undefined until first asked: most requests (a catalog 304, a page) never need it. */
  address?: string | null
  readAddress: AddressReader
}

const states = new WeakMap<Request, RequestState>()
const NONE: RequestState = { path: '/', caller: null, address: null, readAddress: () => null }

export const requestState = {
  set: (request: Request, state: RequestState) => void states.set(request, state),
  /** The state of a request the front door saw (every request the app handles). */
  of: (request: Request): RequestState => states.get(request) ?? NONE,
  /** The request's client address, read once. */
  address(request: Request): string | null {
    const state = states.get(request)
    if (!state) return null
    if (state.address === undefined) state.address = state.readAddress(request)
    return state.address
  },
}
