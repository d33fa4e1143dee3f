// The auth epoch: bumped by every write that can change what a credential may do, so cached
// authentications are dropped at once (revoking a key or disabling a person takes effect immediately).
export const authEpoch = { value: 0 }

/** Action-log kinds whose writes can change a credential's rights. */
const AFFECTS_AUTH = /^(keys|people|account|settings)\./

export function noteWrite(kind: string): void {
  if (AFFECTS_AUTH.test(kind)) authEpoch.value++
}
