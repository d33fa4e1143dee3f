// Astro builds the public site and the admin section as static pages from the SQLite database.
import { defineConfig } from 'astro/config'

export default defineConfig({
  outDir: process.env.SITE_OUT_DIR ?? './dist',
  // The site builder gives each build its own cache, so builds of two processes at once share none of it.
  cacheDir: process.env.SITE_CACHE_DIR ?? './node_modules/.astro',
  build: { format: 'directory', inlineStylesheets: 'never' },
  trailingSlash: 'ignore',
  devToolbar: { enabled: false },
})
