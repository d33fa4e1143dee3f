// How passwords are stored: argon2id at OWASP's first recommended setting (19 MiB, 2 passes, 1 lane). Bun's default
// (64 MiB) would let a burst of sign-ins take hundreds of megabytes on the small boxes this runs on (decision 0162);
// hashes made with other settings still verify, since each hash carries its own.
const ARGON2ID = { algorithm: 'argon2id', memoryCost: 19_456, timeCost: 2 } as const

export const hashPassword = (password: string): Promise<string> => Bun.password.hash(password, ARGON2ID)

export const verifyPassword = (password: string, hash: string): Promise<boolean> => Bun.password.verify(password, hash)
