/**
 * portico/ui/phone-input — the phone number input (country picker, as-you-type formatting,
 * E.164), on its own subpath because it needs the optional peer `libphonenumber-js`. Screens
 * that take a phone number import it from here; `portico/ui` does not re-export it, so an
 * e-mail-only app needs React and Portico only.
 */
export { PhoneInput } from './components/phone-input'
export type { PhoneInputProps, PhoneValue } from './components/phone-input'
