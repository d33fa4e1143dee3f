// The app's icons, made once from the site's mark (public/favicon.svg) into public/icons/ by make-icons.ts: PNG for
// the manifests and for iPhones' home screens.
/** The colour of the site's header and mark (styles.css `--accent`), for the phone's title bar and splash screen. */
export const THEME_COLOR = '#0b4f8a'
export const BACKGROUND = '#ffffff'

/** The icons every manifest lists, by file name under /icons/. */
export const ICONS = [
  { file: 'icon-192.png', size: 192, purpose: 'any' },
  { file: 'icon-512.png', size: 512, purpose: 'any' },
  { file: 'maskable-512.png', size: 512, purpose: 'maskable' },
  { file: 'apple-touch-icon.png', size: 180, purpose: null },
] as const
