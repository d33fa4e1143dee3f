// SMTP_URL and MAIL_FROM as the operator writes them: what is accepted, what stops the start with a plain sentence,
// and when a plain smtp:// relay must offer STARTTLS.
import { describe, expect, it } from 'bun:test'
import { mailConfig } from '../../server/mail/config.ts'

describe('mailConfig', () => {
  it('is null without SMTP_URL: mail is not set up', () => {
    expect(mailConfig({})).toBeNull()
    expect(mailConfig({ MAIL_FROM: 'pack@example.org' })).toBeNull()
  })

  it('reads the relay and sender, and needs TLS for a password that would cross a network', () => {
    expect(mailConfig({ SMTP_URL: 'smtp://u%40x.org:pw@smtp.example.org:587', MAIL_FROM: 'Pack 123 <pack@example.org>' })).toEqual({
      url: 'smtp://u%40x.org:pw@smtp.example.org:587',
      from: 'Pack 123 <pack@example.org>',
      relay: 'smtp.example.org:587',
      requireTls: true,
    })
    expect(mailConfig({ SMTP_URL: 'smtps://me%40fastmail.com:app@smtp.fastmail.com' })).toMatchObject({
      from: 'me@fastmail.com',
      relay: 'smtp.fastmail.com:465',
      requireTls: false,
    })
    expect(mailConfig({ SMTP_URL: 'smtp://127.0.0.1:25', MAIL_FROM: 'p@example.org' })!.requireTls).toBe(false)
    expect(mailConfig({ SMTP_URL: 'smtp://localhost:2525', MAIL_FROM: 'p@example.org' })!.requireTls).toBe(false)
    expect(mailConfig({ SMTP_URL: 'smtp://relay.lan:25?requireTLS=false', MAIL_FROM: 'p@example.org' })!.requireTls).toBe(false)
  })

  it('stops the start with a plain sentence for a bad URL, a missing or bad MAIL_FROM', () => {
    expect(() => mailConfig({ SMTP_URL: 'not a url' })).toThrow('SMTP_URL must look like smtp://')
    expect(() => mailConfig({ SMTP_URL: 'http://smtp.example.org', MAIL_FROM: 'p@example.org' })).toThrow(
      'must start with smtp:// or smtps://',
    )
    expect(() => mailConfig({ SMTP_URL: 'smtp://user:pw@smtp.example.org' })).toThrow('MAIL_FROM is needed with SMTP_URL')
    expect(() => mailConfig({ SMTP_URL: 'smtp://smtp.example.org', MAIL_FROM: 'a@example.org, b@example.org' })).toThrow(
      'MAIL_FROM must be one address',
    )
    expect(() => mailConfig({ SMTP_URL: 'smtp://smtp.example.org', MAIL_FROM: 'Pack 123' })).toThrow('MAIL_FROM must be one address')
    expect(() => mailConfig({ SMTP_URL: 'smtp://smtp.example.org', MAIL_FROM: 'Pack <p@example.org>\r\nBcc: evil@x.org' })).toThrow(
      'MAIL_FROM must be one address',
    )
    expect(() => mailConfig({ SMTP_URL: 'smtp://smtp.example.org', MAIL_FROM: 'Pack <p@example.org> <q@evil.org>' })).toThrow(
      'MAIL_FROM must be one address',
    )
  })
})
