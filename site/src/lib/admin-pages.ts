// The admin areas, each declared once: where it is, its name in the admin menu, what it is for (the dashboard's
// cards) and the capability it needs. The admin layout draws the menu from this list, and each page's script asks
// `signedInFor` its own entry, so the menu and the page cannot disagree about who may use it.
import type { Capability } from '#server/auth/capabilities.ts'

export interface AdminPage {
  href: string
  label: string
  /** One line for the dashboard's card; the pages without one are always in the menu. */
  about?: string
  /** What the signed-in credential must hold for the page to show in the menu and to open. */
  needs?: Capability
}

export const ADMIN_PAGES = [
  { href: '/admin/', label: 'Dashboard' },
  { href: '/admin/leads/', label: 'Leads', needs: 'leads:read', about: 'Families who sent the join form: claim one to follow up.' },
  {
    href: '/admin/pages/',
    label: 'Content pages',
    needs: 'pages:write',
    about: 'About us, costs, what to bring, FAQ: pages you write for the public site.',
  },
  {
    href: '/admin/files/',
    label: 'Files',
    needs: 'pages:write',
    about: 'Forms, packing lists and pictures to link from pages; the logo and link-preview image.',
  },
  {
    href: '/admin/announcements/',
    label: 'Announcements',
    needs: 'announcements:write',
    about: 'Short notices on the public pages of the units they are for.',
  },
  {
    href: '/admin/messages/',
    label: 'Messages',
    needs: 'messages:send',
    about: 'Mail the families and leaders of your units, and see who got each message.',
  },
  { href: '/admin/calendar/', label: 'Calendar', needs: 'calendar:write', about: 'Meetings, campouts and events on the public calendar.' },
  {
    href: '/admin/posts/',
    label: 'Social posts',
    needs: 'socialposts:read',
    about: 'What the publisher will post, with cancel and reschedule.',
  },
  { href: '/admin/nearby/', label: 'Nearby units', needs: 'nearby:write', about: 'The public directory of other units near us.' },
  {
    href: '/admin/roster/',
    label: 'Roster',
    needs: 'roster:write',
    about: 'Households, scouts, dues and health forms for this program year.',
  },
  {
    href: '/admin/money/',
    label: 'Money',
    needs: 'money:write',
    about: "What each family owes and has paid, dues, statements and the treasurer's report.",
  },
  {
    href: '/admin/people/',
    label: 'People',
    needs: 'people:invite_leader',
    about: 'Invite leaders and families, give reset links, change roles.',
  },
  { href: '/family/', label: 'Your family', needs: 'account:self', about: "Your own household and this year's checklist." },
  {
    href: '/admin/units/',
    label: 'Units',
    needs: 'unit:write_own',
    about: "Each unit's name, number and meeting day, time and place on the public site.",
  },
  { href: '/admin/keys/', label: 'API keys', needs: 'apikeys:own', about: 'Keys for your own scripts, with the permissions you choose.' },
  {
    href: '/admin/settings/',
    label: 'Settings',
    needs: 'settings:write',
    about: "The site's name, announcement limits and where keys work from.",
  },
  { href: '/admin/history/', label: 'History', needs: 'history:read', about: 'Who changed what, and when.' },
  { href: '/api/docs', label: 'API docs', needs: 'api:docs', about: 'Every admin API route, for script writers.' },
  { href: '/admin/account/', label: 'Your account' },
] as const satisfies readonly AdminPage[]

/** An admin area, named by where it is: `'/admin/leads/'`. */
export type AdminHref = (typeof ADMIN_PAGES)[number]['href']

/** The capability an admin area needs, if any. */
export const needsOf = (href: AdminHref): Capability | undefined =>
  (ADMIN_PAGES as readonly AdminPage[]).find((p) => p.href === href)?.needs
