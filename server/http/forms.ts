// The public forms work without JavaScript: a form post is answered with a redirect (303), a JSON post with JSON.
export const isFormPost = (request: Request) => (request.headers.get('content-type') ?? '').startsWith('application/x-www-form-urlencoded')

/** A 303 to `location`, with any headers the answer must carry (a cookie). */
export const seeOther = (location: string, headers: Record<string, string> = {}) =>
  new Response(null, { status: 303, headers: { ...headers, location } })
