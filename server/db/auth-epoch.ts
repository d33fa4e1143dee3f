// The auth epoch: bumped by every write that can change what a credential may do or end it, so cached
// authentications are dropped at once (revoking a key or disabling a person takes effect immediately).
export const authEpoch = { value: 0 }

/** Action-log kinds whose writes can change a credential's rights or end a session (signing in ends the previous one). */
const AFFECTS_AUTH = /^(keys|people|account|settings)\.|^(login\.success|logout)$/

export function noteWrite(kind: string): void {
  if (AFFECTS_AUTH.test(kind)) authEpoch.value++
}
