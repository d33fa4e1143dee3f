// The public pages search engines may index, for the sitemap; robots.txt keeps crawlers out of everything else.
export const INDEXED_PAGES = [
  '/',
  '/units/pack/',
  '/units/troop/',
  '/calendar/',
  '/calendar/pack/',
  '/calendar/troop/',
  '/calendar/month/',
  '/calendar/pack/month/',
  '/calendar/troop/month/',
  '/join/',
  '/nearby/',
  '/catalog/',
]

export const PRIVATE_PATHS = ['/admin/', '/api/', '/family/', '/invite/', '/reset/', '/setup/', '/unsubscribe/', '/reply/']
