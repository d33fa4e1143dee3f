// Our own Astro adapter: the compiled site is a server bundle whose `app` renders any page for a request
// (`render/entry.mjs`). Nothing serves it on requests: server/site/build.ts renders every page into files after each
// change, so a rebuild costs the rendering alone, not a compile.
export default function renderAdapter() {
  return {
    name: 'site-render',
    hooks: {
      'astro:config:done': ({ setAdapter }) =>
        setAdapter({
          name: 'site-render',
          serverEntrypoint: new URL('./entry.mjs', import.meta.url),
          entrypointResolution: 'auto',
          // No image service: the site uses no astro:assets.
          supportedAstroFeatures: { serverOutput: 'stable', staticOutput: 'stable', hybridOutput: 'stable', sharpImageService: 'unsupported' },
        }),
    },
  }
}
