// Astro compiles the public site and the admin section once per version of their sources, as a server bundle
// (render/adapter.mjs); server/site/build.ts then renders every page from the SQLite database after each change.
import { defineConfig } from 'astro/config'
import renderAdapter from './render/adapter.mjs'

export default defineConfig({
  output: 'server',
  adapter: renderAdapter(),
  outDir: process.env.SITE_OUT_DIR ?? './dist',
  // The site builder gives each compile its own cache, so compiles of two processes at once share none of it.
  cacheDir: process.env.SITE_CACHE_DIR ?? './node_modules/.astro',
  build: { format: 'directory', inlineStylesheets: 'never' },
  // The site's CSP allows scripts from its own files only (script-src 'self'): a page's script is never inlined, however
  // small (Astro inlines one under 4 KB with no imports, which the browser then refuses to run).
  vite: { build: { assetsInlineLimit: (file) => (file.endsWith('.js') ? false : undefined) } },
  trailingSlash: 'ignore',
  devToolbar: { enabled: false },
})
