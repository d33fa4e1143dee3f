// The settings API's shapes: one setting as the list shows it, the list, a key in the path and a new value.
import { Type as t } from '@sinclair/typebox'
import { SETTINGS } from './registry.ts'

const SETTING_EXAMPLE = {
  key: 'announcements.live_cap',
  label: 'Announcements shown at once',
  type: 'a whole number from 1 to 20',
  minimum: 1,
  maximum: 20,
  value: 3,
  default: 3,
  description: 'How many announcements may be live at the same time.',
}

export const SettingView = t.Object(
  {
    key: t.String(),
    label: t.String({ description: 'What the settings page calls it' }),
    type: t.String({ description: 'The values it takes, in words' }),
    minimum: t.Optional(t.Integer({ description: 'For a whole-number setting: the least it may be' })),
    maximum: t.Optional(t.Integer({ description: 'For a whole-number setting: the most it may be' })),
    choices: t.Optional(
      t.Array(t.Object({ value: t.String(), label: t.String() }, { additionalProperties: false }), {
        description: 'For a setting with a few values: each value with its words',
      }),
    ),
    value: t.Unknown({ description: 'The value in force' }),
    default: t.Unknown({ description: 'What null restores' }),
    description: t.String(),
  },
  { $id: 'Setting', additionalProperties: false, examples: [SETTING_EXAMPLE] },
)
export const SettingList = t.Object(
  { settings: t.Array(SettingView) },
  { additionalProperties: false, examples: [{ settings: [SETTING_EXAMPLE] }] },
)
export const SettingKeyParams = t.Object({
  // Published as an enum (generated clients type it); checked by the route, so an unknown key on GET is 404.
  key: t.String({
    maxLength: 100,
    description: 'The setting key',
    examples: ['announcements.live_cap'],
    'x-enum': Object.keys(SETTINGS),
  }),
})
export const SettingValue = t.Object(
  { value: t.Unknown({ description: 'The new value, or null to restore the default' }) },
  { additionalProperties: false, examples: [{ value: 2 }] },
)
