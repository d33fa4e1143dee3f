// How the service stores a password: argon2id at OWASP's first recommended setting (decision 162). Fixture accounts
// in the tests are hashed at a cheaper setting (passwordHashOf in tests/helpers.ts), so this is where the service's own
// setting is held to.
import { describe, expect, it } from 'bun:test'
import { hashPassword, verifyPassword } from '../../server/auth/passwords.ts'

describe('hashPassword', () => {
  it('makes an argon2id hash at 19 MiB, 2 passes and 1 lane, which verifies only its own password', async () => {
    const hash = await hashPassword('correct horse battery')
    expect(hash).toStartWith('$argon2id$v=19$m=19456,t=2,p=1$')
    expect(await verifyPassword('correct horse battery', hash)).toBe(true)
    expect(await verifyPassword('correct horse batterY', hash)).toBe(false)
  })

  it('still verifies a hash made at another setting, which carries its own', async () => {
    const older = await Bun.password.hash('an older password', { algorithm: 'argon2id', memoryCost: 65_536, timeCost: 3 })
    expect(await verifyPassword('an older password', older)).toBe(true)
  })
})
