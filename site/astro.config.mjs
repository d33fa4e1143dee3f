// Astro builds the public site and the admin section as static pages from the SQLite database.
import { defineConfig } from 'astro/config'

export default defineConfig({
  outDir: process.env.SITE_OUT_DIR ?? './dist',
  build: { format: 'directory', inlineStylesheets: 'never' },
  trailingSlash: 'ignore',
  devToolbar: { enabled: false },
})
