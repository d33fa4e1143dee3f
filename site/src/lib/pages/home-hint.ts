// The family page's "Add to home screen" hint: on a phone, in the browser (not the installed app), until the person
// dismisses it or adds the app; then never again on this phone (localStorage). Where the browser offers to install
// (Android's Chromium), its button does it; otherwise the hint says where the browser's menu has it.
const DISMISSED = 'home-hint-dismissed'

const hint = document.getElementById('home-hint') as HTMLElement
const add = document.getElementById('home-hint-add') as HTMLButtonElement
const phone = matchMedia('(max-width: 48rem)').matches
const installed = matchMedia('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true
const iPhone = /iPhone|iPad|iPod/.test(navigator.userAgent)

function done() {
  localStorage.setItem(DISMISSED, '1')
  hint.hidden = true
}

if (phone && !installed && !localStorage.getItem(DISMISSED)) {
  document.getElementById('home-hint-how')!.textContent = iPhone
    ? 'Add this page to your home screen: tap Share, then "Add to Home Screen". It then opens like an app.'
    : 'Add this page to your home screen: in the browser’s menu, choose "Add to Home screen" or "Install app". It then opens like an app.'
  hint.hidden = false
  document.getElementById('home-hint-dismiss')!.addEventListener('click', done)
  window.addEventListener('appinstalled', done)
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault()
    add.hidden = false
    add.onclick = async () => {
      const prompt = event as Event & { prompt(): Promise<void>; userChoice: Promise<{ outcome: string }> }
      await prompt.prompt()
      if ((await prompt.userChoice).outcome === 'accepted') done()
    }
  })
}
