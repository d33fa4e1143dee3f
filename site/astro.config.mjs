// Astro builds the public site and the admin section as static pages from the SQLite database.
import { defineConfig } from 'astro/config'

export default defineConfig({
  outDir: process.env.SITE_OUT_DIR ?? './dist',
  // The site builder gives each build its own cache, so builds of two processes at once share none of it.
  cacheDir: process.env.SITE_CACHE_DIR ?? './node_modules/.astro',
  build: { format: 'directory', inlineStylesheets: 'never' },
  // The site's CSP allows scripts from its own files only (script-src 'self'): a page's script is never inlined, however
  // small (Astro inlines one under 4 KB with no imports, which the browser then refuses to run).
  vite: { build: { assetsInlineLimit: (file) => (file.endsWith('.js') ? false : undefined) } },
  trailingSlash: 'ignore',
  devToolbar: { enabled: false },
})
