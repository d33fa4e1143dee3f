// The Idempotency-Key an admin page sends with a POST: the same path and body sent again after its answer was lost
// (the connection dropped, or a 5xx) go with the same key, so the server does the work once and replays its answer;
// any other answer ends the key, so a changed form, a success or a refusal sends a new one next time. Pressing the
// button twice at once sends one key too: the second waits for the first and gets its answer.
const pending = new Map<string, string>()

/** A new random key; crypto.randomUUID exists only in a secure context, and an admin on the LAN may use plain http. */
export function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/** The key for this POST, and `answered(status)` to call with its answer's status (0: no answer came). */
export function retryKey(path: string, body: unknown): { key: string; answered(status: number): void } {
  const slot = `${path}\n${JSON.stringify(body ?? null)}`
  const key = pending.get(slot) ?? newKey()
  pending.set(slot, key)
  return {
    key,
    answered(status) {
      if (status > 0 && status < 500 && pending.get(slot) === key) pending.delete(slot)
    },
  }
}
