/**
 * E.164 conversion with libphonenumber-js (its metadata is most of the plugin's weight). Only
 * imported dynamically (`loadE164` in ./flow.ts), so the plugin's entry and an app's initial
 * load do not carry it: it loads with the phone input at idle, or at the first send.
 */
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js'
import { PorticoError } from 'portico'
import { SMS_TEXTS } from './strings'

/** A typed number to E.164 for the given country; throws `invalid_data` when it is not valid there. */
export function toE164Sync(value: string, country: string = 'US', message: string = SMS_TEXTS.invalidPhone): string {
  const p = parsePhoneNumberFromString(String(value ?? '').trim(), country.toUpperCase() as CountryCode)
  if (!p || !p.isValid()) throw new PorticoError('invalid_data', message)
  return p.number
}
