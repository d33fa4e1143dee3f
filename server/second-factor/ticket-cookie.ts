// A form sign-in (no JavaScript) carries its second-factor ticket from the password page to the code page in a
// short-lived cookie, sent only to /login.
export const TICKET_COOKIE = 'site_login_ticket'

const attributes = (publicBaseUrl: string, maxAge: number) =>
  `HttpOnly; SameSite=Strict; Path=/login; Max-Age=${maxAge}${publicBaseUrl.startsWith('https:') ? '; Secure' : ''}`

export const ticketCookie = (ticket: string, publicBaseUrl: string) => `${TICKET_COOKIE}=${ticket}; ${attributes(publicBaseUrl, 300)}`
export const clearedTicketCookie = (publicBaseUrl: string) => `${TICKET_COOKIE}=; ${attributes(publicBaseUrl, 0)}`
